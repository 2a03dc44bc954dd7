import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, useId } from 'react';

type Props = { value: string; onChange: (value: string) => void; error?: string };

/** The brand colour of the chat window and avatar, picked with the browser's colour picker. */
export function BrandColorField({ value, onChange, error }: Props) {
  const id = useId();
  return (
    <Stack spacing={0.5}>
      <Stack direction="row" spacing={1.5} alignItems="center">
        <Box
          component="input"
          id={id}
          type="color"
          aria-label="Brand colour"
          value={value}
          onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
          sx={{
            width: 48,
            height: 36,
            p: 0,
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            cursor: 'pointer',
          }}
        />
        <Typography component="label" htmlFor={id} variant="body2">
          Brand colour <code>{value}</code>
        </Typography>
      </Stack>
      {error ? (
        <Typography variant="caption" color="error">
          {error}
        </Typography>
      ) : null}
    </Stack>
  );
}
