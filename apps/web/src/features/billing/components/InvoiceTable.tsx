import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { BILLING_TEXTS, type Invoice } from '@parley/contracts';
import { useEffect, useState } from 'react';
import { useDispatch } from 'react-redux';
import { FRESH_ON_VISIT_S } from '../../../shared/api/base-api';
import { serverDetail } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { downloadWithSession, saveBlob } from '../../leads/download';
import { useInvoiceHistoryQuery } from '../api';
import {
  formatDate,
  formatMoney,
  formatPeriod,
  INVOICE_STATUS_COLORS,
  INVOICE_STATUS_LABELS,
  invoiceDescription,
  refundText,
} from '../model';
import { Section } from './Section';

/**
 * Every charge: number, date, period, what it was for, amount (and what refunds gave back), tax,
 * status, and its PDF.
 */
export function InvoiceTable({ tenantId }: { tenantId: number }) {
  const invoices = useInvoiceHistoryQuery(tenantId, { refetchOnMountOrArgChange: FRESH_ON_VISIT_S });
  const notify = useNotify();
  const dispatch = useDispatch();
  const [downloading, setDownloading] = useState<number | null>(null);
  const failure = invoices.error ? (serverDetail(invoices.error) ?? BILLING_TEXTS.fetchInvoicesFailed) : null;

  // Spec section 8: the failure as an error toast.
  useEffect(() => {
    if (failure) notify.error(failure);
  }, [failure, notify]);

  const download = async (invoice: Invoice) => {
    if (!invoice.pdf_url) return;
    setDownloading(invoice.id);
    const outcome = await downloadWithSession(invoice.pdf_url, `${invoice.number}.pdf`, dispatch);
    setDownloading(null);
    if (outcome.ok) return saveBlob(outcome.blob, outcome.fileName);
    notify.error(
      outcome.reason === 'http'
        ? (outcome.detail ?? `The invoice could not be downloaded (HTTP ${outcome.status}).`)
        : outcome.reason === 'timeout'
          ? 'The invoice download timed out. Please try again.'
          : 'The invoice could not be downloaded.',
    );
  };

  const list = invoices.data?.invoices ?? [];
  return (
    <Section title="Invoices">
      {invoices.isLoading ? <CircularProgress size={24} aria-label="Loading invoices" /> : null}
      {failure ? <Alert severity="error">{failure}</Alert> : null}
      {invoices.data && list.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No invoices yet.
        </Typography>
      ) : null}
      {list.length > 0 ? (
        <TableContainer>
          <Table size="small" aria-label="Invoice history">
            <TableHead>
              <TableRow>
                <TableCell>Number</TableCell>
                <TableCell>Date</TableCell>
                <TableCell>Period</TableCell>
                <TableCell>Description</TableCell>
                <TableCell align="right">Amount</TableCell>
                <TableCell align="right">Tax</TableCell>
                <TableCell>Status</TableCell>
                <TableCell align="right">PDF</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.map((invoice) => (
                <TableRow key={invoice.id}>
                  <TableCell>{invoice.number}</TableCell>
                  <TableCell>{formatDate(invoice.charged_at)}</TableCell>
                  <TableCell>{formatPeriod(invoice.period_start, invoice.period_end)}</TableCell>
                  <TableCell>{invoiceDescription(invoice)}</TableCell>
                  <TableCell align="right">
                    {formatMoney(invoice.amount, invoice.currency)}
                    {invoice.amount_refunded > 0 ? (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {refundText(invoice)}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell align="right">{formatMoney(invoice.tax, invoice.currency)}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      label={INVOICE_STATUS_LABELS[invoice.status]}
                      color={INVOICE_STATUS_COLORS[invoice.status]}
                    />
                  </TableCell>
                  <TableCell align="right">
                    {invoice.pdf_url ? (
                      <Tooltip title="Download PDF">
                        <span>
                          <IconButton
                            size="small"
                            aria-label={`Download invoice ${invoice.number}`}
                            onClick={() => void download(invoice)}
                            disabled={downloading === invoice.id}
                          >
                            {downloading === invoice.id ? <CircularProgress size={18} /> : <Download />}
                          </IconButton>
                        </span>
                      </Tooltip>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
    </Section>
  );
}
