import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { MAX_ALTERNATE_QUESTIONS } from '@parley/contracts';
import { type KeyboardEvent, useState } from 'react';

type Props = { wordings: string[]; onChange: (wordings: string[]) => void };

/**
 * A pair's other wordings: visitors' words it answers as it answers its own question. They come from
 * the unanswered queue ("Same as an existing answer"); the owner may also add one they expect, or
 * remove one. Saved with the pair; they are not trained.
 */
export function OtherWordings({ wordings, onChange }: Props) {
  const [draft, setDraft] = useState('');
  const text = draft.replace(/\s+/g, ' ').trim();
  const full = wordings.length >= MAX_ALTERNATE_QUESTIONS;
  const known = wordings.some((w) => w.toLowerCase() === text.toLowerCase());

  const add = () => {
    if (!text || full || known) return;
    onChange([...wordings, text]);
    setDraft('');
  };
  // Enter adds the wording instead of saving the whole dialog.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };

  return (
    <Box component="section" aria-label="Other wordings">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Also asked as (visitors' words this pair answers too):
      </Typography>
      {wordings.length > 0 ? (
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 1.5 }}>
          {wordings.map((wording) => (
            <Chip
              key={wording}
              label={wording}
              size="small"
              onDelete={() => onChange(wordings.filter((w) => w !== wording))}
            />
          ))}
        </Stack>
      ) : null}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <TextField
          size="small"
          fullWidth
          label="Add a wording"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={full}
          helperText={
            full ? `At most ${MAX_ALTERNATE_QUESTIONS} other wordings` : known ? 'Already there' : ' '
          }
          slotProps={{ htmlInput: { maxLength: 2000 } }}
        />
        <Button onClick={add} disabled={!text || full || known} sx={{ mt: 0.5 }}>
          Add
        </Button>
      </Stack>
    </Box>
  );
}
