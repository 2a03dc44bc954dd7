import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { AdminPartner } from '@parley/contracts';
import { useState } from 'react';
import { useAppDispatch } from '../../../app/store';
import { serverDetail } from '../../../shared/api/errors';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { PageHeader } from '../../../shared/components/PageHeader';
import { TablePager } from '../../../shared/components/TablePager';
import { useNotify } from '../../../shared/hooks/useNotify';
import { formatMoney } from '../../billing/model';
import { downloadWithSession, saveBlob } from '../../leads/download';
import { useAbility } from '../../permissions/hooks/useAbility';
import { useAdminPartnersQuery, useMarkPayoutMutation } from '../api';
import { useAffiliatePaging } from '../components/PartnerTables';

type Due = { partner: AdminPartner; currency: string; amount: number };

/** /admin/partners, for platform admins: every partner's balances, payouts to mark paid, CSV export. */
export function AdminPartnersPage() {
  const canWrite = useAbility().can('write', 'Admin');
  const notify = useNotify();
  const dispatch = useAppDispatch();
  const { paging, pagerProps } = useAffiliatePaging();
  const partners = useAdminPartnersQuery(paging);
  const [markPayout, marking] = useMarkPayoutMutation();
  const [due, setDue] = useState<Due | null>(null);

  const exportCsv = async () => {
    const outcome = await downloadWithSession(
      '/api/admin/affiliation/partners.csv',
      'partners.csv',
      dispatch,
    );
    if (outcome.ok) saveBlob(outcome.blob, outcome.fileName);
    else notify.error(outcome.reason === 'http' && outcome.detail ? outcome.detail : 'The export failed.');
  };

  const pay = async () => {
    if (!due) return;
    // The amount the admin confirmed: the server records the payout only if it is still the balance.
    const result = await markPayout({
      partnerId: due.partner.id,
      body: { currency: due.currency, amount: due.amount },
    });
    setDue(null);
    if ('error' in result) notify.error(serverDetail(result.error) ?? 'The payout could not be marked.');
    else notify.success(result.data.message);
  };

  return (
    <>
      <PageHeader
        title="Partners"
        subtitle="Affiliate partners, their balances and payouts."
        actions={
          <Button startIcon={<Download />} variant="outlined" onClick={exportCsv}>
            Export CSV
          </Button>
        }
      />
      {partners.isLoading ? <CircularProgress aria-label="Loading partners" /> : null}
      {partners.isError ? <Alert severity="error">The partners could not be loaded.</Alert> : null}
      {partners.data ? (
        <>
          <TableContainer>
            <Table size="small" aria-label="Partners">
              <TableHead>
                <TableRow>
                  <TableCell>Partner</TableCell>
                  <TableCell>Payout details</TableCell>
                  <TableCell align="right">Links</TableCell>
                  <TableCell align="right">Referrals</TableCell>
                  <TableCell>Pending</TableCell>
                  <TableCell>Approved</TableCell>
                  <TableCell>Paid</TableCell>
                  <TableCell align="right">Payout</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {partners.data.items.map((p) => (
                  <TableRow key={p.id}>
                    <TableCell>
                      {p.display_name}
                      <br />
                      {p.email}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{p.payout_details ?? 'Not given'}</TableCell>
                    <TableCell align="right">{p.links}</TableCell>
                    <TableCell align="right">{p.referrals}</TableCell>
                    <TableCell>{amounts(p, 'pending')}</TableCell>
                    <TableCell>{amounts(p, 'approved')}</TableCell>
                    <TableCell>{amounts(p, 'paid')}</TableCell>
                    <TableCell align="right">
                      <Stack spacing={1} alignItems="flex-end">
                        {p.balances
                          .filter((b) => b.approved > 0)
                          .map((b) => (
                            <Button
                              key={b.currency}
                              size="small"
                              variant="contained"
                              disabled={!canWrite}
                              onClick={() => setDue({ partner: p, currency: b.currency, amount: b.approved })}
                            >
                              Mark {formatMoney(b.approved, b.currency)} paid
                            </Button>
                          ))}
                      </Stack>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePager {...pagerProps(partners.data.total)} />
        </>
      ) : null}
      <ConfirmDialog
        open={due !== null}
        title="Mark payout as paid?"
        text={
          due
            ? `Record that ${formatMoney(due.amount, due.currency)} was paid to ${due.partner.display_name}. Their approved commissions in ${due.currency} become paid.`
            : ''
        }
        confirmLabel="Mark paid"
        busy={marking.isLoading}
        onConfirm={pay}
        onClose={() => setDue(null)}
      />
    </>
  );
}

function amounts(partner: AdminPartner, key: 'pending' | 'approved' | 'paid'): string {
  const shown = partner.balances.filter((b) => b[key] !== 0).map((b) => formatMoney(b[key], b.currency));
  return shown.length > 0 ? shown.join(' + ') : '0';
}
