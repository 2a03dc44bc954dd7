import Stack from '@mui/material/Stack';
import type { UseFormReturn } from 'react-hook-form';
import type { SchemaInput } from '../../../shared/lib/form';
import type { InstructionsFields } from '../schemas';
import { InstructionsForm } from './InstructionsForm';
import { WizardNav } from './WizardNav';

type Props = {
  form: UseFormReturn<SchemaInput<typeof InstructionsFields>, unknown, InstructionsFields>;
  onBack: () => void;
  onNext: () => void;
};

/** Step 3: instructions, model, temperature and internet access. */
export function WizardInstructionsStep({ form, onBack, onNext }: Props) {
  return (
    <Stack
      component="form"
      noValidate
      aria-label="Instructions and model"
      onSubmit={form.handleSubmit(onNext)}
    >
      <InstructionsForm form={form} />
      <WizardNav onBack={onBack} nextLabel="Next" />
    </Stack>
  );
}
