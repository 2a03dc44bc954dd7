import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BOT_IMAGE_ACCEPT } from '@parley/contracts';
import { type ChangeEvent, useId, useState } from 'react';
import { usePreviewUrl } from '../hooks/usePreviewUrl';
import { imageProblem } from '../image';
import { BotAvatar } from './BotAvatar';

type Props = {
  name: string;
  color: string;
  /** The stored image, shown until a new one is picked. */
  currentUrl: string | null;
  file: File | null;
  onChange: (file: File | null) => void;
};

/** Picks a profile image: checked for kind and size here, previewed before it is sent. */
export function ProfileImageField({ name, color, currentUrl, file, onChange }: Props) {
  const inputId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const preview = usePreviewUrl(file);

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (!picked) return;
    const issue = imageProblem(picked);
    setProblem(issue);
    if (!issue) onChange(picked);
  };

  return (
    <Stack direction="row" spacing={2} alignItems="center">
      <BotAvatar name={name || 'Bot'} image={preview ?? currentUrl} color={color} size={64} />
      <Stack spacing={0.5}>
        <Stack direction="row" spacing={1}>
          <Button component="label" htmlFor={inputId} variant="outlined" size="small">
            {file || currentUrl ? 'Change image' : 'Upload image'}
            <input
              id={inputId}
              type="file"
              hidden
              accept={BOT_IMAGE_ACCEPT}
              aria-label="Profile image"
              onChange={pick}
            />
          </Button>
          {file ? (
            <Button size="small" onClick={() => onChange(null)}>
              Remove
            </Button>
          ) : null}
        </Stack>
        <Typography variant="caption" color="text.secondary">
          {file ? file.name : 'PNG, JPEG, WebP or GIF, up to 2 MB.'}
        </Typography>
        {problem ? <FormHelperText error>{problem}</FormHelperText> : null}
      </Stack>
    </Stack>
  );
}
