import Stack from '@mui/material/Stack';
import { BOT, NAME_RULES, withRule } from '@parley/contracts';
import type { UseFormReturn } from 'react-hook-form';
import { TextInput } from '../../../shared/components/TextInput';
import { fieldProps, type SchemaInput } from '../../../shared/lib/form';
import type { DetailsFields } from '../schemas';
import { ProfileImageField } from './ProfileImageField';
import { WizardNav } from './WizardNav';

type Props = {
  form: UseFormReturn<SchemaInput<typeof DetailsFields>, unknown, DetailsFields>;
  image: File | null;
  onImage: (file: File | null) => void;
  onNext: () => void;
};

/** Step 1: the bot's name (checked as the server checks it), description and profile image. */
export function WizardDetailsStep({ form, image, onImage, onNext }: Props) {
  const name = form.watch('bot_name') ?? '';
  const nameField = fieldProps(form, 'bot_name');
  return (
    <Stack component="form" noValidate aria-label="Bot details" onSubmit={form.handleSubmit(onNext)}>
      <Stack spacing={2.5}>
        <TextInput
          label="Bot name"
          autoFocus
          autoComplete="off"
          {...nameField}
          helperText={withRule(nameField.helperText, NAME_RULES.bot)}
        />
        <TextInput label="Description" multiline minRows={2} {...fieldProps(form, 'description')} />
        <ProfileImageField
          name={name}
          color={BOT.defaultBrandColor}
          currentUrl={null}
          file={image}
          onChange={onImage}
        />
      </Stack>
      <WizardNav nextLabel="Next" />
    </Stack>
  );
}
