import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { TextInput } from '../../../shared/components/TextInput';
import { useNotify } from '../../../shared/hooks/useNotify';

type Props = { id: string; label: string; value: string; multiline?: boolean };

/** A read-only value with a Copy button (clipboard API, falling back to selecting the text). */
export function CopyField({ id, label, value, multiline }: Props) {
  const notify = useNotify();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notify.info(`${label} copied`);
    } catch {
      const input = document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement | null;
      input?.select();
      notify.info('Press Ctrl+C to copy');
    }
  };
  return (
    <Stack direction="row" spacing={1} alignItems="flex-start">
      <TextInput
        id={id}
        label={label}
        value={value}
        readOnly
        multiline={multiline}
        sx={{ fontFamily: 'monospace', fontSize: 13 }}
        onFocus={(event) => event.target.select()}
      />
      <Button variant="outlined" onClick={copy} aria-label={`Copy ${label}`} sx={{ mt: 0.25 }}>
        Copy
      </Button>
    </Stack>
  );
}
