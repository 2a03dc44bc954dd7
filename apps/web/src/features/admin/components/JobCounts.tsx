import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AdminJobCounts } from '@parley/contracts';
import { formatNumber } from '../format';

const STATES: Array<{ key: keyof AdminJobCounts; label: string; color: string }> = [
  { key: 'queued', label: 'Queued', color: 'info.main' },
  { key: 'active', label: 'Running', color: 'warning.main' },
  { key: 'completed', label: 'Completed', color: 'success.main' },
  { key: 'failed', label: 'Failed', color: 'error.main' },
];

/** The whole queue by state: a bar split in proportion, with each count beside its colour. */
export function JobCounts({ counts }: { counts: AdminJobCounts }) {
  const total = STATES.reduce((n, s) => n + counts[s.key], 0);
  return (
    <Box>
      <Box
        role="img"
        aria-label={STATES.map((s) => `${counts[s.key]} ${s.label.toLowerCase()}`).join(', ')}
        sx={{ display: 'flex', height: 12, borderRadius: 1, overflow: 'hidden', bgcolor: 'action.hover' }}
      >
        {total > 0
          ? STATES.map((s) =>
              counts[s.key] > 0 ? (
                <Box
                  key={s.key}
                  sx={{ bgcolor: s.color, width: `${(counts[s.key] / total) * 100}%`, minWidth: 4 }}
                />
              ) : null,
            )
          : null}
      </Box>
      <Stack direction="row" spacing={3} sx={{ mt: 1 }} flexWrap="wrap" useFlexGap>
        {STATES.map((s) => (
          <Stack key={s.key} direction="row" spacing={1} alignItems="center">
            <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: s.color }} />
            <Typography variant="body2" data-testid={`jobs-${s.key}`}>
              {s.label}: <strong>{formatNumber(counts[s.key])}</strong>
            </Typography>
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
