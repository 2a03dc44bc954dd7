import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { fileKey, formatBytes } from '../format';
import type { ChosenNote } from '../names';

type Props = {
  files: File[];
  /** Said under each file: why it cannot be sent (red), or what it will do (a replaced file). */
  notes?: ChosenNote[];
  /** Percent sent per file, and in total; null before the upload starts. */
  progress: { perFile: number[]; total: number } | null;
  onRemove?: (index: number) => void;
};

/** The chosen files, each with its progress bar while uploading, and the total. */
export function FileProgressList({ files, notes = [], progress, onRemove }: Props) {
  if (files.length === 0) return null;
  return (
    <Stack spacing={1} aria-label="Chosen files" role="list">
      {files.map((file, i) => (
        <Stack key={fileKey(file)} role="listitem" spacing={0.5}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="body2" sx={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis' }}>
              {file.name}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {formatBytes(file.size)}
            </Typography>
            {onRemove && !progress ? (
              <IconButton size="small" aria-label={`Remove ${file.name}`} onClick={() => onRemove(i)}>
                ×
              </IconButton>
            ) : null}
          </Stack>
          {notes[i] ? (
            <Typography
              variant="caption"
              color={notes[i].problem ? 'error' : 'text.secondary'}
              data-testid={notes[i].problem ? 'chosen-file-problem' : 'chosen-file-note'}
            >
              {notes[i].text}
            </Typography>
          ) : null}
          {progress ? (
            <LinearProgress
              variant="determinate"
              value={progress.perFile[i] ?? 0}
              aria-label={`Upload progress of ${file.name}`}
            />
          ) : null}
        </Stack>
      ))}
      {progress ? (
        <Stack spacing={0.5}>
          <Typography variant="body2">Total: {progress.total}%</Typography>
          <LinearProgress
            variant="determinate"
            value={progress.total}
            color="secondary"
            aria-label="Total upload progress"
          />
        </Stack>
      ) : null}
    </Stack>
  );
}
