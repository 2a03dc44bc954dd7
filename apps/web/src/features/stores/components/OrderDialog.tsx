import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type OrderData, STORE_TEXTS, type Store, type StoreItem, type Tracking } from '@parley/contracts';
import { skipToken } from '@reduxjs/toolkit/query';
import { useState } from 'react';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useAbility } from '../../permissions/hooks/useAbility';
import {
  useCancelOrderMutation,
  useRefundOrderMutation,
  useStoreItemQuery,
  useWooTrackingQuery,
} from '../api';
import {
  CANCEL_REASONS,
  type CancelReason,
  failText,
  formatDateTime,
  formatMoney,
  recordStatusColor,
  refundAmountError,
  refundable,
} from '../model';

type Props = { store: Store; order: StoreItem; onClose: () => void };

/** One order: its lines, totals and tracking; on Shopify it can be cancelled or refunded. */
export function OrderDialog({ store, order: listed, onClose }: Props) {
  const ability = useAbility();
  const mayWrite = ability.can('write', 'Create Bot');
  const shopify = store.platform === 'shopify';
  const fresh = useStoreItemQuery({
    platform: store.platform,
    storeId: store.id,
    type: 'orders',
    itemId: listed.id,
  });
  const tracking = useWooTrackingQuery(shopify ? skipToken : { storeId: store.id, orderId: listed.id });
  const [acting, setActing] = useState<'cancel' | 'refund' | null>(null);
  const [updated, setUpdated] = useState<StoreItem | null>(null);
  const order = updated ?? fresh.data ?? listed;
  const data = order.data as unknown as OrderData;
  const lines = data.lines ?? [];
  const trackingList: Tracking[] = shopify
    ? (data.tracking ?? [])
    : (tracking.data?.tracking ?? data.tracking ?? []);
  const cancelled = Boolean(data.cancelled_at);
  const left = refundable(data.total, data.refunded);

  return (
    <Dialog open onClose={onClose} aria-labelledby="order-title" fullWidth maxWidth="md">
      <DialogTitle id="order-title">Order {data.number}</DialogTitle>
      <DialogContent dividers>
        {fresh.isFetching ? <LinearProgress aria-label="Loading order" sx={{ mb: 1 }} /> : null}
        <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap sx={{ mb: 2 }}>
          {cancelled ? (
            <Chip size="small" color="error" label={`Cancelled ${formatDateTime(data.cancelled_at)}`} />
          ) : null}
          {data.financial_status ? (
            <Chip
              size="small"
              label={`Payment: ${data.financial_status}`}
              color={recordStatusColor(data.financial_status)}
            />
          ) : null}
          {data.fulfillment_status ? (
            <Chip
              size="small"
              label={`Fulfilment: ${data.fulfillment_status}`}
              color={recordStatusColor(data.fulfillment_status)}
            />
          ) : null}
          {order.status && !data.financial_status ? (
            <Chip size="small" label={order.status} color={recordStatusColor(order.status)} />
          ) : null}
        </Stack>
        <Box sx={{ display: 'grid', gridTemplateColumns: { sm: '1fr 1fr' }, gap: 1, mb: 2 }}>
          <Typography variant="body2">
            <strong>Customer:</strong> {data.customer_name ?? '–'}
          </Typography>
          <Typography variant="body2">
            <strong>Email:</strong> {data.email ?? '–'}
          </Typography>
          <Typography variant="body2">
            <strong>Phone:</strong> {data.phone ?? '–'}
          </Typography>
          <Typography variant="body2">
            <strong>Placed:</strong> {formatDateTime(data.placed_at, '–')}
          </Typography>
        </Box>

        <Typography variant="subtitle2" component="h3">
          Items
        </Typography>
        <Table size="small" aria-label="Order lines" sx={{ mb: 2 }}>
          <TableHead>
            <TableRow>
              <TableCell>Item</TableCell>
              <TableCell>SKU</TableCell>
              <TableCell align="right">Quantity</TableCell>
              <TableCell align="right">Price</TableCell>
              <TableCell align="right">Line total</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {lines.map((line, index) => (
              // Lines have no id of their own; their order is stable.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <TableRow key={index} aria-label={line.title}>
                <TableCell>{line.title}</TableCell>
                <TableCell>{line.sku ?? '–'}</TableCell>
                <TableCell align="right">{line.quantity}</TableCell>
                <TableCell align="right">{formatMoney(line.price, data.currency)}</TableCell>
                <TableCell align="right">
                  {formatMoney(Number(line.price) * line.quantity, data.currency)}
                </TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell colSpan={4} align="right">
                <strong>Total</strong>
              </TableCell>
              <TableCell align="right" data-testid="order-total">
                <strong>{formatMoney(data.total, data.currency)}</strong>
              </TableCell>
            </TableRow>
            {Number(data.refunded) > 0 ? (
              <TableRow>
                <TableCell colSpan={4} align="right">
                  Refunded
                </TableCell>
                <TableCell align="right" data-testid="order-refunded">
                  {formatMoney(data.refunded, data.currency)}
                </TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>

        <Typography variant="subtitle2" component="h3">
          Tracking
        </Typography>
        {!shopify && tracking.isFetching ? <LinearProgress aria-label="Loading tracking" /> : null}
        {trackingList.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {tracking.data?.message ?? STORE_TEXTS.noTracking}
          </Typography>
        ) : (
          <List dense aria-label="Tracking">
            {trackingList.map((entry, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: shipments have no id of their own
              <ListItem key={index} disableGutters>
                <ListItemText
                  primary={
                    entry.url ? (
                      <Link href={entry.url} target="_blank" rel="noreferrer">
                        {entry.number ?? entry.url}
                      </Link>
                    ) : (
                      (entry.number ?? 'No tracking number')
                    )
                  }
                  secondary={[entry.company, entry.status].filter(Boolean).join(' · ') || undefined}
                />
              </ListItem>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        {shopify && mayWrite ? (
          <>
            <Button color="error" onClick={() => setActing('cancel')} disabled={cancelled}>
              Cancel order
            </Button>
            <Button onClick={() => setActing('refund')} disabled={Number(left) <= 0}>
              Refund
            </Button>
            <Divider orientation="vertical" flexItem />
          </>
        ) : null}
        <Button onClick={onClose} variant="contained">
          Close
        </Button>
      </DialogActions>
      {acting === 'cancel' ? (
        <CancelDialog
          orderId={order.id}
          number={data.number}
          onDone={setUpdated}
          onClose={() => setActing(null)}
        />
      ) : null}
      {acting === 'refund' ? (
        <RefundDialog
          orderId={order.id}
          number={data.number}
          left={left}
          currency={data.currency}
          onDone={setUpdated}
          onClose={() => setActing(null)}
        />
      ) : null}
    </Dialog>
  );
}

type ActionProps = {
  orderId: number;
  number: string;
  onDone: (order: StoreItem) => void;
  onClose: () => void;
};

function CancelDialog({ orderId, number, onDone, onClose }: ActionProps) {
  const notify = useNotify();
  const [cancel, cancelling] = useCancelOrderMutation();
  const [reason, setReason] = useState<CancelReason | ''>('');
  const [error, setError] = useState<string | null>(null);
  const onConfirm = async () => {
    setError(null);
    try {
      const { order } = await cancel({ orderId, ...(reason ? { reason } : {}) }).unwrap();
      notify.success(STORE_TEXTS.orderCancelled);
      onDone(order);
      onClose();
    } catch (failure) {
      const text = failText(failure, STORE_TEXTS.shopifyFailed('cancel', 'order'));
      setError(text);
      notify.error(text);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="cancel-order-title" fullWidth maxWidth="xs">
      <DialogTitle id="cancel-order-title">Cancel order {number}?</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          The order is cancelled in Shopify. This cannot be undone; refunds are made separately.
        </DialogContentText>
        <TextField
          select
          fullWidth
          size="small"
          label="Reason"
          value={reason}
          onChange={(event) => setReason(event.target.value as CancelReason | '')}
        >
          <MenuItem value="">
            <em>No reason given</em>
          </MenuItem>
          {CANCEL_REASONS.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
        {error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Keep order</Button>
        <Button color="error" variant="contained" onClick={onConfirm} disabled={cancelling.isLoading}>
          Confirm cancellation
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function RefundDialog({
  orderId,
  number,
  left,
  currency,
  onDone,
  onClose,
}: ActionProps & { left: string; currency: string }) {
  const notify = useNotify();
  const [refund, refunding] = useRefundOrderMutation();
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [notifyCustomer, setNotifyCustomer] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const amountError = refundAmountError(amount);
  const onConfirm = async () => {
    if (amountError) return;
    setError(null);
    try {
      const { order } = await refund({
        orderId,
        ...(amount.trim() ? { amount: amount.trim() } : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
        notify: notifyCustomer,
      }).unwrap();
      notify.success(STORE_TEXTS.orderRefunded);
      onDone(order);
      onClose();
    } catch (failure) {
      const text = failText(failure, STORE_TEXTS.shopifyFailed('refund', 'order'));
      setError(text);
      notify.error(text);
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="refund-order-title" fullWidth maxWidth="xs">
      <DialogTitle id="refund-order-title">Refund order {number}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Up to {formatMoney(left, currency)} can be refunded. Leave the amount empty to refund all of it.
        </DialogContentText>
        <Stack spacing={2}>
          <TextField
            size="small"
            label="Amount"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            error={Boolean(amountError)}
            helperText={amountError ?? `In ${currency}, for example ${left}`}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
          <TextField
            size="small"
            label="Note"
            value={note}
            onChange={(event) => setNote(event.target.value)}
            multiline
            minRows={2}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={notifyCustomer}
                onChange={(event) => setNotifyCustomer(event.target.checked)}
              />
            }
            label="Notify the customer"
          />
        </Stack>
        {error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          onClick={onConfirm}
          disabled={refunding.isLoading || Boolean(amountError)}
        >
          Create refund
        </Button>
      </DialogActions>
    </Dialog>
  );
}
