import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';

type Props = { onBack?: () => void; nextLabel: string; busy?: boolean };

/** Back and the step's submit button, at the foot of each wizard step. */
export function WizardNav({ onBack, nextLabel, busy }: Props) {
  return (
    <Stack direction="row" spacing={1} justifyContent="flex-end" sx={{ mt: 3 }}>
      {onBack ? <Button onClick={onBack}>Back</Button> : null}
      <Button type="submit" variant="contained" disabled={busy}>
        {nextLabel}
      </Button>
    </Stack>
  );
}
