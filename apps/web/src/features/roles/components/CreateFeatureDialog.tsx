import { CreateFeatureBody, MESSAGES } from '@parley/contracts';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';
import { fieldProps, useZodForm } from '../../../shared/lib/form';
import { useCreateFeatureMutation } from '../api';
import { failureText } from '../failure';
import { FormDialog } from './FormDialog';

type Props = { open: boolean; onClose: () => void };

/** A tenant feature: a named permission that roles can then be granted. */
export function CreateFeatureDialog({ open, onClose }: Props) {
  const [create, { error, isLoading, reset }] = useCreateFeatureMutation();
  const notify = useNotify();
  const form = useZodForm(CreateFeatureBody, { defaultValues: { name: '', description: '' } });
  const close = () => {
    form.reset();
    reset();
    onClose();
  };
  const onSubmit = form.handleSubmit(async ({ name, description }) => {
    const result = await create(description ? { name, description } : { name });
    if ('data' in result && result.data) {
      notify.success(`Feature ${result.data.name} created successfully`);
      close();
    }
  });
  return (
    <FormDialog
      open={open}
      id="create-feature"
      title="Create feature"
      error={error ? failureText(MESSAGES.users.unexpected, error) : null}
      busy={isLoading}
      submitLabel="Create feature"
      onSubmit={onSubmit}
      onClose={close}
    >
      <TextInput label="Feature name" autoFocus autoComplete="off" {...fieldProps(form, 'name')} />
      <TextInput
        label="Description (optional)"
        multiline
        minRows={2}
        {...fieldProps(form, 'description', { optional: true })}
      />
    </FormDialog>
  );
}
