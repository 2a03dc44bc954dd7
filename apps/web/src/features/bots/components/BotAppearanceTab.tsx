import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import {
  type Bot,
  isDefaultWelcome,
  NAME_RULES,
  VISITOR_LANGUAGE_NAMES,
  VISITOR_LANGUAGES,
  withRule,
} from '@parley/contracts';
import { type FormEvent, useState } from 'react';
import { Controller } from 'react-hook-form';
import { TextInput } from '../../../shared/components/TextInput';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { usePublicBotQuery } from '../../chat/api';
import { firstError } from '../form-errors';
import { useSaveBot } from '../hooks/useSaveBot';
import { AppearanceFields } from '../schemas';
import { BrandColorField } from './BrandColorField';
import { LeadFormEditor } from './LeadFormEditor';
import { ProfileImageField } from './ProfileImageField';
import { SaveBar } from './SaveBar';
import { SuggestedQuestionsEditor } from './SuggestedQuestionsEditor';

const valuesOf = (bot: Bot) => ({
  bot_name: bot.bot_name,
  description: bot.description ?? '',
  brand_color: bot.brand_color,
  welcome_message: bot.welcome_message,
  visitor_language: bot.visitor_language,
  suggestion_questions: bot.suggestion_questions,
  lead_form_config: bot.lead_form_config,
  is_public: bot.is_public,
});

/** Name, profile image, brand colour, welcome message, visitor language, suggested questions, lead form and listing. */
export function BotAppearanceTab({ bot }: { bot: Bot }) {
  const form = useZodForm(AppearanceFields, { defaultValues: valuesOf(bot) });
  const { control } = form;
  const [image, setImage] = useState<File | null>(null);
  const { save, busy } = useSaveBot(bot.bot_id);
  const name = form.watch('bot_name') ?? '';
  const nameField = fieldProps(form, 'bot_name');
  const color = form.watch('brand_color') ?? bot.brand_color;
  const welcomeField = fieldProps(form, 'welcome_message');
  // What Automatic resolves to, as the widget is served (to this browser).
  const shown = usePublicBotQuery(bot.uuid, { refetchOnMountOrArgChange: true });
  const automatic =
    bot.visitor_language === 'auto' && shown.data ? VISITOR_LANGUAGE_NAMES[shown.data.language] : null;
  const defaultWelcome = isDefaultWelcome(form.watch('welcome_message'));

  const submit = (event: FormEvent) => {
    // Blank suggested questions are dropped rather than refused.
    const questions = form.getValues('suggestion_questions') ?? [];
    const kept = questions.map((q) => q.trim()).filter(Boolean);
    if (kept.length !== questions.length) form.setValue('suggestion_questions', kept);
    return form.handleSubmit(async (values) => {
      const saved = await save(values, image);
      if (saved) {
        form.reset(valuesOf(saved));
        setImage(null);
      }
    })(event);
  };

  return (
    <Stack component="form" noValidate aria-label="Appearance" onSubmit={submit} spacing={3}>
      <ProfileImageField
        name={name}
        color={color}
        currentUrl={bot.profile_image}
        file={image}
        onChange={setImage}
      />
      <TextInput
        label="Bot name"
        autoComplete="off"
        {...nameField}
        helperText={withRule(nameField.helperText, NAME_RULES.bot)}
      />
      <TextInput label="Description" multiline minRows={2} {...fieldProps(form, 'description')} />
      <Controller
        control={control}
        name="brand_color"
        render={({ field, fieldState }) => (
          <BrandColorField
            value={field.value ?? ''}
            onChange={field.onChange}
            error={fieldState.error?.message}
          />
        )}
      />
      <TextInput
        label="Welcome message"
        multiline
        minRows={2}
        {...welcomeField}
        helperText={
          welcomeField.helperText ??
          (defaultWelcome
            ? `The default greeting: visitors read it in the language for visitors below${
                shown.data && shown.data.welcome_message !== bot.welcome_message
                  ? ` (“${shown.data.welcome_message}”)`
                  : ''
              }. A message you write is shown as you wrote it.`
            : undefined)
        }
      />
      <Controller
        control={control}
        name="visitor_language"
        render={({ field }) => (
          <TextField
            select
            label="Language for visitors"
            value={field.value ?? 'auto'}
            onChange={(event) => field.onChange(event.target.value)}
            helperText={`The chat window's buttons and the bot's own lines (greetings, “I don't know”, hand-off notices). Automatic follows the language your sources are written in${automatic ? ` (now: ${automatic})` : ''}; sources in several languages greet each visitor in the one their browser prefers.`}
            sx={{ maxWidth: 420 }}
          >
            <MenuItem value="auto">Automatic (from your sources)</MenuItem>
            {VISITOR_LANGUAGES.map((language) => (
              <MenuItem key={language} value={language}>
                {VISITOR_LANGUAGE_NAMES[language]}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Divider />
      <Controller
        control={control}
        name="suggestion_questions"
        render={({ field, fieldState }) => (
          <SuggestedQuestionsEditor
            value={field.value ?? []}
            onChange={field.onChange}
            error={firstError(fieldState.error)}
          />
        )}
      />
      <Divider />
      <Controller
        control={control}
        name="lead_form_config"
        render={({ field, fieldState }) => (
          <LeadFormEditor
            value={field.value ?? null}
            onChange={field.onChange}
            error={firstError(fieldState.error)}
          />
        )}
      />
      <Divider />
      <Controller
        control={control}
        name="is_public"
        render={({ field }) => (
          <FormControlLabel
            control={
              <Switch checked={Boolean(field.value)} onChange={(e) => field.onChange(e.target.checked)} />
            }
            label="List publicly (visitors can find and chat with this bot without the embed code)"
          />
        )}
      />
      <SaveBar
        busy={busy}
        dirty={form.formState.isDirty || image !== null}
        onReset={() => {
          form.reset(valuesOf(bot));
          setImage(null);
        }}
      />
    </Stack>
  );
}
