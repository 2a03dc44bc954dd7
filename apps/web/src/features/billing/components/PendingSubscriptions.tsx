import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Subscription } from '@parley/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { useCancelSubscriptionMutation } from '../api';
import { CYCLE_LABEL, formatDate, formatMoney, priceOf } from '../model';
import { Section } from './Section';
import { StatusChip } from './StatusChip';

type Props = {
  /** Started, checkout not completed. */
  pending: Subscription[];
  /** Paid, being processed; or a renewal being retried. */
  inProcess: Subscription[];
  canManage: boolean;
};

/** Subscriptions that do not apply yet: awaiting payment, or with a payment being processed. */
export function PendingSubscriptions({ pending, inProcess, canManage }: Props) {
  const [discarding, setDiscarding] = useState<Subscription | null>(null);
  const [cancel, cancelState] = useCancelSubscriptionMutation();
  if (pending.length === 0 && inProcess.length === 0) return null;
  const rows = [...inProcess, ...pending.filter((p) => !inProcess.some((s) => s.id === p.id))];

  const confirm = async () => {
    if (!discarding) return;
    await cancel({ id: discarding.id, atPeriodEnd: false });
    setDiscarding(null);
  };

  return (
    <Section title="Pending and in process">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        A subscription awaiting payment applies once checkout is completed; one in process applies as soon as
        Razorpay confirms the payment.
      </Typography>
      <TableContainer>
        <Table size="small" aria-label="Pending subscriptions">
          <TableHead>
            <TableRow>
              <TableCell>Plan</TableCell>
              <TableCell>Cycle</TableCell>
              <TableCell align="right">Price</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Started</TableCell>
              <TableCell align="right">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((s) => (
              <TableRow key={s.id}>
                <TableCell>{s.plan.name}</TableCell>
                <TableCell>{CYCLE_LABEL[s.billing_cycle]}</TableCell>
                <TableCell align="right">
                  {formatMoney(priceOf(s.plan, s.billing_cycle), s.plan.currency)}
                </TableCell>
                <TableCell>
                  <StatusChip status={s.status} />
                </TableCell>
                <TableCell>
                  {s.scheduled ? `Starts ${formatDate(s.start_date)}` : formatDate(s.start_date)}
                </TableCell>
                <TableCell align="right">
                  {canManage && s.status === 'created' ? (
                    <Button
                      size="small"
                      color="error"
                      onClick={() => setDiscarding(s)}
                      aria-label={`Discard pending ${s.plan.name} subscription`}
                    >
                      Discard
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ConfirmDialog
        open={discarding !== null}
        title="Discard this subscription?"
        text="Its checkout was never completed; nothing has been charged. You can choose a plan again at any time."
        confirmLabel="Discard"
        busy={cancelState.isLoading}
        onConfirm={confirm}
        onClose={() => setDiscarding(null)}
      />
    </Section>
  );
}
