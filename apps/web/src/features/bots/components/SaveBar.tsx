import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';

type Props = { busy: boolean; dirty?: boolean; onReset?: () => void };

/** The Save (and Reset) buttons at the foot of a bot tab's form. */
export function SaveBar({ busy, dirty = true, onReset }: Props) {
  return (
    <Stack direction="row" spacing={1} justifyContent="flex-end" sx={{ mt: 3 }}>
      {onReset ? (
        <Button onClick={onReset} disabled={busy || !dirty}>
          Reset
        </Button>
      ) : null}
      <Button type="submit" variant="contained" disabled={busy}>
        {busy ? 'Saving…' : 'Save'}
      </Button>
    </Stack>
  );
}
