import Chip from '@mui/material/Chip';
import type { SubscriptionStatus } from '@parley/contracts';
import { STATUS_COLORS, STATUS_LABELS } from '../model';

/** A subscription's or add-on's state, in words and colour. */
export function StatusChip({ status, label }: { status: SubscriptionStatus; label?: string }) {
  return (
    <Chip
      size="small"
      color={STATUS_COLORS[status]}
      label={label ?? STATUS_LABELS[status]}
      variant={STATUS_COLORS[status] === 'default' ? 'outlined' : 'filled'}
    />
  );
}
