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
import type { ReactNode } from 'react';
import { TablePager, type TablePagerProps, usePaging } from '../../../shared/components/TablePager';
import { formatMoney } from '../../billing/model';
import { type Paging, useCommissionsQuery, useReferralsQuery } from '../api';
import { formatDay, PAYOUT_STATUS_COLOURS } from '../model';

const AFFILIATE_PAGE_SIZES = [10, 25, 50] as const;

/** Page 1, size 10 by default (spec section 9); the affiliate API counts pages from 1, MUI from 0. */
export function useAffiliatePaging(): { paging: Paging; pagerProps: (total: number) => TablePagerProps } {
  const { page, size, pagerProps } = usePaging(AFFILIATE_PAGE_SIZES, AFFILIATE_LIMITS.pageDefault);
  return { paging: { page: page + 1, size }, pagerProps };
}

type PageQuery<Item> = { isLoading: boolean; isError: boolean; data?: { items: Item[]; total: number } };

type PagedTableProps<Item> = {
  query: PageQuery<Item>;
  pagerProps: (total: number) => TablePagerProps;
  label: string;
  loadingLabel: string;
  emptyText: string;
  head: ReactNode;
  row: (item: Item) => ReactNode;
};

/** One page of a partner's list, with the spec's failure text and a line when there is nothing yet. */
function PagedTable<Item>({
  query,
  pagerProps,
  label,
  loadingLabel,
  emptyText,
  head,
  row,
}: PagedTableProps<Item>) {
  if (query.isLoading) return <CircularProgress aria-label={loadingLabel} />;
  if (query.isError || !query.data)
    return <Alert severity="error">{AFFILIATE_TEXTS.loadAnalyticsFailed}</Alert>;
  const { items, total } = query.data;
  return (
    <>
      <TableContainer>
        <Table size="small" aria-label={label}>
          <TableHead>
            <TableRow>{head}</TableRow>
          </TableHead>
          <TableBody>{items.map(row)}</TableBody>
        </Table>
      </TableContainer>
      {total === 0 ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          {emptyText}
        </Typography>
      ) : null}
      <TablePager {...pagerProps(total)} />
    </>
  );
}

/** The workspaces the partner referred, by anonymised name only. */
export function ReferralsTable() {
  const { paging, pagerProps } = useAffiliatePaging();
  const referrals = useReferralsQuery(paging);
  return (
    <PagedTable
      query={referrals}
      pagerProps={pagerProps}
      label="Referrals"
      loadingLabel="Loading referrals"
      emptyText="No referrals yet."
      head={
        <>
          <TableCell>Workspace</TableCell>
          <TableCell>Link</TableCell>
          <TableCell>Campaign</TableCell>
          <TableCell>Signed up</TableCell>
        </>
      }
      row={(r) => (
        <TableRow key={r.id}>
          <TableCell>{r.workspace}</TableCell>
          <TableCell>{r.link_code ?? 'Deleted link'}</TableCell>
          <TableCell>{r.campaign ?? ''}</TableCell>
          <TableCell>{formatDay(r.created_at)}</TableCell>
        </TableRow>
      )}
    />
  );
}

/** Commissions with their payout status. */
export function CommissionsTable() {
  const { paging, pagerProps } = useAffiliatePaging();
  const commissions = useCommissionsQuery(paging);
  return (
    <PagedTable
      query={commissions}
      pagerProps={pagerProps}
      label="Commissions"
      loadingLabel="Loading commissions"
      emptyText="No commissions yet."
      head={
        <>
          <TableCell>Workspace</TableCell>
          <TableCell>Earned</TableCell>
          <TableCell align="right">Payment (net of tax)</TableCell>
          <TableCell align="right">Commission</TableCell>
          <TableCell>Status</TableCell>
          <TableCell>Approves on</TableCell>
        </>
      }
      row={(c) => (
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
      )}
    />
  );
}
