import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { SubscriptionAddon } from '@parley/contracts';
import { useState } from 'react';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useCancelAddonMutation } from '../api';
import { addonAdds, formatDate, formatMoney } from '../model';
import { Section } from './Section';
import { StatusChip } from './StatusChip';

/** The add-ons bought, with their quantity, and a way to stop each at the end of its period. */
export function BoughtAddons({ addons, canManage }: { addons: SubscriptionAddon[]; canManage: boolean }) {
  const [cancelling, setCancelling] = useState<SubscriptionAddon | null>(null);
  const [cancel, cancelState] = useCancelAddonMutation();
  const notify = useNotify();

  const confirm = async () => {
    if (!cancelling) return;
    const result = await cancel({ id: cancelling.id, atPeriodEnd: true });
    setCancelling(null);
    if ('data' in result) notify.success(`${cancelling.addon.name} is cancelled.`);
  };

  return (
    <Section title="Add-ons">
      {addons.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No add-ons bought. Add messages, bots, seats or characters from the Upgrade page.
        </Typography>
      ) : (
        <TableContainer>
          <Table size="small" aria-label="Add-ons bought">
            <TableHead>
              <TableRow>
                <TableCell>Add-on</TableCell>
                <TableCell align="right">Quantity</TableCell>
                <TableCell>Adds</TableCell>
                <TableCell align="right">Price a month</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Renewal</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {addons.map((link) => (
                <TableRow key={link.id}>
                  <TableCell>{link.addon.name}</TableCell>
                  <TableCell align="right">{link.quantity}</TableCell>
                  <TableCell>{addonAdds(link.addon, link.quantity)}</TableCell>
                  <TableCell align="right">
                    {formatMoney(link.addon.price_monthly * link.quantity, link.addon.currency)}
                  </TableCell>
                  <TableCell>
                    <StatusChip status={link.status} />
                  </TableCell>
                  <TableCell>
                    {link.auto_renew
                      ? link.end_date
                        ? `Renews on ${formatDate(link.end_date)}`
                        : ''
                      : link.end_date
                        ? `Ends on ${formatDate(link.end_date)}`
                        : 'Ends at the end of the period'}
                  </TableCell>
                  <TableCell align="right">
                    {canManage && link.auto_renew ? (
                      <Button
                        size="small"
                        color="error"
                        onClick={() => setCancelling(link)}
                        aria-label={`Cancel ${link.addon.name}`}
                      >
                        Cancel
                      </Button>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ConfirmDialog
        open={cancelling !== null}
        title={`Cancel ${cancelling?.addon.name ?? 'this add-on'}?`}
        text="It stays until the end of the period already paid for and is not charged again."
        confirmLabel="Cancel add-on"
        busy={cancelState.isLoading}
        onConfirm={confirm}
        onClose={() => setCancelling(null)}
      />
    </Section>
  );
}
