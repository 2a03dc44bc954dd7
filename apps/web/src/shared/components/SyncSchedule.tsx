import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  DEFAULT_SYNC_HOUR,
  describeChanges,
  SYNC_SCHEDULES,
  SYNC_TEXTS,
  type SyncScheduleBody,
  type SyncScheduleName,
  type SyncState,
} from '@parley/contracts';

const SCHEDULE_LABELS: Record<SyncScheduleName, string> = {
  off: 'Off',
  daily: 'Daily',
  weekly: 'Weekly (Mondays)',
};
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00 UTC`;

type Props = {
  state: SyncState;
  disabled?: boolean;
  onChange: (body: SyncScheduleBody) => void;
};

/** How often a source is read again: off, daily or weekly, at an hour (UTC); the next run below. */
export function SyncScheduleControl({ state, disabled, onChange }: Props) {
  const hour = state.schedule === 'off' ? DEFAULT_SYNC_HOUR : state.schedule_hour;
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <TextField
        select
        size="small"
        label="Re-sync"
        value={state.schedule}
        disabled={disabled}
        onChange={(event) =>
          onChange({ schedule: event.target.value as SyncScheduleName, schedule_hour: hour })
        }
        fullWidth={false}
        sx={{ width: 190 }}
      >
        {SYNC_SCHEDULES.map((schedule) => (
          <MenuItem key={schedule} value={schedule}>
            {SCHEDULE_LABELS[schedule]}
          </MenuItem>
        ))}
      </TextField>
      {state.schedule === 'off' ? null : (
        <TextField
          select
          size="small"
          label="At"
          value={hour}
          disabled={disabled}
          onChange={(event) =>
            onChange({ schedule: state.schedule, schedule_hour: Number(event.target.value) })
          }
          fullWidth={false}
          sx={{ width: 150 }}
        >
          {HOURS.map((value) => (
            <MenuItem key={value} value={value}>
              {hourLabel(value)}
            </MenuItem>
          ))}
        </TextField>
      )}
      {state.next_sync_at ? (
        <Typography variant="caption" color="text.secondary">
          Next: {new Date(state.next_sync_at).toLocaleString()}
        </Typography>
      ) : null}
    </Stack>
  );
}

/** "Last synced <when> · 1 changed, 1 removed, 1 unchanged". */
export function syncSummary(lastSyncedAt: string | null, state: SyncState): string {
  const when = lastSyncedAt ? new Date(lastSyncedAt).toLocaleString() : SYNC_TEXTS.neverSynced;
  return `Last synced ${when}${state.last_changes ? ` · ${describeChanges(state.last_changes)}` : ''}`;
}
