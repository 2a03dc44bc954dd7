import Stack from '@mui/material/Stack';
import type { Bot } from '@parley/contracts';
import { useZodForm } from '../../../shared/lib/form';
import { useSaveBot } from '../hooks/useSaveBot';
import { InstructionsFields } from '../schemas';
import { InstructionsForm } from './InstructionsForm';
import { SaveBar } from './SaveBar';

const valuesOf = (bot: Bot) => ({
  prompt: bot.prompt ?? '',
  llm_model: bot.llm_model,
  temperature: bot.temperature,
  internet: bot.internet,
  max_citations: bot.max_citations,
  human_button: bot.human_button,
  handoff_confidence: bot.handoff_confidence,
  analytics: bot.analytics,
});

/** The bot's instructions, model, temperature, internet access and analytics. */
export function BotInstructionsTab({ bot }: { bot: Bot }) {
  const form = useZodForm(InstructionsFields, { defaultValues: valuesOf(bot) });
  const { save, busy } = useSaveBot(bot.bot_id);
  const submit = form.handleSubmit(async (values) => {
    const saved = await save(values);
    if (saved) form.reset(valuesOf(saved));
  });
  return (
    <Stack component="form" noValidate aria-label="Instructions and model" onSubmit={submit}>
      <InstructionsForm form={form} withAnalytics />
      <SaveBar busy={busy} dirty={form.formState.isDirty} onReset={() => form.reset(valuesOf(bot))} />
    </Stack>
  );
}
