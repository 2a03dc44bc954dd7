import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { AFFILIATE_LIMITS, AFFILIATE_TEXTS } from '@parley/contracts';
import { useState } from 'react';
import { TablePager } from '../../../shared/components/TablePager';
import { formatMoney } from '../../billing/model';
import { type Paging, useCommissionsQuery, useReferralsQuery } from '../api';
import { formatDay, PAYOUT_STATUS_COLOURS } from '../model';

/** Page 1, size 10 by default (spec section 9); MUI counts pages from 0. */
export function usePaging(): [Paging, (page: number) => void, (size: number) => void] {
  const [paging, setPaging] = useState<Paging>({ page: 1, size: AFFILIATE_LIMITS.pageDefault });
  return [paging, (page) => setPaging((p) => ({ ...p, page })), (size) => setPaging({ page: 1, size })];
}

type PagerProps = {
  total: number;
  paging: Paging;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
};

/** The shared TablePager, counting pages from 1 as the affiliate API does. */
export function Pager({ total, paging, onPage, onSize }: PagerProps) {
  return (
    <TablePager
      total={total}
      page={paging.page - 1}
      size={paging.size}
      sizes={[10, 25, 50]}
      onChange={(page, size) => (size === paging.size ? onPage(page + 1) : onSize(size))}
    />
  );
}

/** The workspaces the partner referred, by anonymised name only. */
export function ReferralsTable() {
  const [paging, onPage, onSize] = usePaging();
  const referrals = useReferralsQuery(paging);
  if (referrals.isLoading) return <CircularProgress aria-label="Loading referrals" />;
  if (referrals.isError || !referrals.data)
    return <Alert severity="error">{AFFILIATE_TEXTS.loadAnalyticsFailed}</Alert>;
  const { items, total } = referrals.data;
  return (
    <>
      <TableContainer>
        <Table size="small" aria-label="Referrals">
          <TableHead>
            <TableRow>
              <TableCell>Workspace</TableCell>
              <TableCell>Link</TableCell>
              <TableCell>Campaign</TableCell>
              <TableCell>Signed up</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((r) => (
              <TableRow key={r.id}>
                <TableCell>{r.workspace}</TableCell>
                <TableCell>{r.link_code ?? 'Deleted link'}</TableCell>
                <TableCell>{r.campaign ?? ''}</TableCell>
                <TableCell>{formatDay(r.created_at)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {total === 0 ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          No referrals yet.
        </Typography>
      ) : null}
      <Pager total={total} paging={paging} onPage={onPage} onSize={onSize} />
    </>
  );
}

/** Commissions with their payout status. */
export function CommissionsTable() {
  const [paging, onPage, onSize] = usePaging();
  const commissions = useCommissionsQuery(paging);
  if (commissions.isLoading) return <CircularProgress aria-label="Loading commissions" />;
  if (commissions.isError || !commissions.data)
    return <Alert severity="error">{AFFILIATE_TEXTS.loadAnalyticsFailed}</Alert>;
  const { items, total } = commissions.data;
  return (
    <>
      <TableContainer>
        <Table size="small" aria-label="Commissions">
          <TableHead>
            <TableRow>
              <TableCell>Workspace</TableCell>
              <TableCell>Earned</TableCell>
              <TableCell align="right">Payment (net of tax)</TableCell>
              <TableCell align="right">Commission</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Approves on</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {items.map((c) => (
              <TableRow key={c.id}>
                <TableCell>{c.workspace}</TableCell>
                <TableCell>{formatDay(c.earned_at)}</TableCell>
                <TableCell align="right">{formatMoney(c.amount, c.currency)}</TableCell>
                <TableCell align="right">{formatMoney(c.commission_amount, c.currency)}</TableCell>
                <TableCell>
                  <Chip size="small" label={c.payout_status} color={PAYOUT_STATUS_COLOURS[c.payout_status]} />
                </TableCell>
                <TableCell>{c.payout_status === 'pending' ? formatDay(c.approves_at) : ''}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {total === 0 ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          No commissions yet.
        </Typography>
      ) : null}
      <Pager total={total} paging={paging} onPage={onPage} onSize={onSize} />
    </>
  );
}
