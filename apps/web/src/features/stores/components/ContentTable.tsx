import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  type CollectionData,
  type CustomerData,
  type DiscountData,
  type OrderData,
  type PageData,
  type ProductData,
  type Store,
  type StoreItem,
  SYNC,
} from '@parley/contracts';
import { type ReactNode, useEffect, useState } from 'react';
import { useDispatch } from 'react-redux';
import { ConfirmDialog } from '../../../shared/components/ConfirmDialog';
import { useNotify } from '../../../shared/hooks/useNotify';
import {
  storesApi,
  useDeleteStoreItemMutation,
  useStoreItemsQuery,
  useSyncTypeMutation,
  useTrainTypeMutation,
  useUntrainWooTypeMutation,
} from '../api';
import { useStoreJob } from '../hooks/useStoreJob';
import {
  actionFailText,
  type ContentTab,
  clampPercent,
  failText,
  formatDateTime,
  formatMoney,
  recordStatusColor,
  stockOf,
  trainingChip,
} from '../model';
import { OrderDialog } from './OrderDialog';

type Column = { label: string; align?: 'right'; cell: (item: StoreItem) => ReactNode };

const statusChip = (status: string | null | undefined) =>
  status ? <Chip size="small" variant="outlined" label={status} color={recordStatusColor(status)} /> : '–';

const trainingCell = (item: StoreItem) => {
  const chip = trainingChip(item.training_status);
  return <Chip size="small" label={chip.label} color={chip.color} />;
};

const titleCell = (item: StoreItem) =>
  item.url ? (
    <Link href={item.url} target="_blank" rel="noreferrer">
      {item.title}
    </Link>
  ) : (
    item.title
  );

/** The columns that fit a kind of record. */
function columnsFor(tab: ContentTab, store: Store): Column[] {
  const training: Column[] = tab.trainable ? [{ label: 'Training', cell: trainingCell }] : [];
  switch (tab.kind) {
    case 'product':
      return [
        { label: 'Title', cell: titleCell },
        {
          label: 'Price',
          align: 'right',
          cell: (item) => {
            const data = item.data as Partial<ProductData>;
            return formatMoney(data.price, data.currency ?? store.currency);
          },
        },
        {
          label: 'Stock',
          align: 'right',
          cell: (item) => stockOf(item.data) ?? 'Not tracked',
        },
        { label: 'Status', cell: (item) => statusChip(item.status) },
        ...training,
      ];
    case 'collection':
    case 'category':
      return [
        { label: 'Title', cell: titleCell },
        {
          label: 'Products',
          align: 'right',
          cell: (item) => (item.data as Partial<CollectionData>).products_count ?? '–',
        },
        ...training,
      ];
    case 'page':
    case 'blog_article':
    case 'policy':
      return [
        { label: 'Title', cell: titleCell },
        ...(tab.kind === 'blog_article'
          ? [{ label: 'Blog', cell: (item: StoreItem) => (item.data as Partial<PageData>).blog ?? '–' }]
          : []),
        { label: 'Status', cell: (item) => statusChip(item.status) },
        { label: 'Updated', cell: (item) => formatDateTime(item.updated_at, '–') },
        ...training,
      ];
    case 'discount':
    case 'coupon':
      return [
        { label: 'Title', cell: titleCell },
        { label: 'Code', cell: (item) => (item.data as Partial<DiscountData>).code ?? '–' },
        {
          label: 'Value',
          cell: (item) => {
            const data = item.data as Partial<DiscountData>;
            return data.value ?? data.summary ?? '–';
          },
        },
        { label: 'Ends', cell: (item) => formatDateTime((item.data as Partial<DiscountData>).ends_at, '–') },
        { label: 'Status', cell: (item) => statusChip(item.status) },
        ...training,
      ];
    case 'order':
      return [
        { label: 'Order', cell: (item) => (item.data as Partial<OrderData>).number ?? item.title },
        { label: 'Customer', cell: (item) => (item.data as Partial<OrderData>).customer_name ?? '–' },
        { label: 'Email', cell: (item) => (item.data as Partial<OrderData>).email ?? '–' },
        {
          label: 'Status',
          cell: (item) => {
            const data = item.data as Partial<OrderData>;
            return (
              <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
                {data.cancelled_at ? <Chip size="small" color="error" label="cancelled" /> : null}
                {statusChip(data.financial_status ?? item.status)}
                {data.fulfillment_status ? statusChip(data.fulfillment_status) : null}
              </Stack>
            );
          },
        },
        {
          label: 'Total',
          align: 'right',
          cell: (item) => {
            const data = item.data as Partial<OrderData>;
            return formatMoney(data.total, data.currency);
          },
        },
        { label: 'Placed', cell: (item) => formatDateTime((item.data as Partial<OrderData>).placed_at, '–') },
      ];
    case 'customer':
      return [
        { label: 'Name', cell: (item) => item.title },
        { label: 'Email', cell: (item) => (item.data as Partial<CustomerData>).email ?? '–' },
        {
          label: 'Orders',
          align: 'right',
          cell: (item) => (item.data as Partial<CustomerData>).orders_count ?? 0,
        },
        {
          label: 'Spent',
          align: 'right',
          cell: (item) => {
            const data = item.data as Partial<CustomerData>;
            return formatMoney(data.total_spent, data.currency ?? store.currency);
          },
        },
      ];
  }
}

type Task = { kind: 'sync' | 'train'; taskId: string };

/** One content type of a store: search, server-side pages, its own Sync and Train, row deletion. */
export function ContentTable({ store, tab, mayWrite }: { store: Store; tab: ContentTab; mayWrite: boolean }) {
  const notify = useNotify();
  const dispatch = useDispatch();
  const ref = { platform: store.platform, storeId: store.id };
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState<number>(
    store.platform === 'shopify' ? SYNC.shopifyPageSize : SYNC.wooPageSize,
  );
  const [task, setTask] = useState<Task | null>(null);
  const [order, setOrder] = useState<StoreItem | null>(null);
  const [deleting, setDeleting] = useState<StoreItem | null>(null);
  const items = useStoreItemsQuery({ ...ref, type: tab.type, search, page: page + 1, limit });
  const [sync, syncing] = useSyncTypeMutation();
  const [train, training] = useTrainTypeMutation();
  const [untrain, untraining] = useUntrainWooTypeMutation();
  const [remove, removing] = useDeleteStoreItemMutation();
  const lower = tab.label.toLowerCase();

  // The search is sent once typing pauses.
  useEffect(() => {
    const timer = window.setTimeout(() => {
      setSearch(typed);
      setPage(0);
    }, 300);
    return () => window.clearTimeout(timer);
  }, [typed]);

  const { job, running } = useStoreJob(task?.taskId ?? null, (outcome, finished) => {
    dispatch(storesApi.util.invalidateTags(['StoreItems', 'Stores', 'StoreSync', 'StoreTraining']));
    if (outcome === 'failed' && task) {
      notify.error(finished?.error || actionFailText(store.platform, task.kind, tab.type));
    }
  });

  const onSync = async () => {
    try {
      const { message, task_id } = await sync({ ...ref, type: tab.type }).unwrap();
      setTask({ kind: 'sync', taskId: task_id });
      notify.success(message);
    } catch (error) {
      notify.error(failText(error, actionFailText(store.platform, 'sync', tab.type)));
    }
  };
  const onTrain = async () => {
    try {
      const { message, task_id } = await train({ ...ref, type: tab.type }).unwrap();
      setTask({ kind: 'train', taskId: task_id });
      notify.success(message);
    } catch (error) {
      notify.error(failText(error, actionFailText(store.platform, 'train', tab.type)));
    }
  };
  const onUntrain = async () => {
    try {
      const { message } = await untrain({ storeId: store.id, type: tab.type }).unwrap();
      notify.success(message);
    } catch (error) {
      notify.error(failText(error, actionFailText(store.platform, 'train', tab.type)));
    }
  };
  const onDelete = async () => {
    if (!deleting) return;
    try {
      const { message } = await remove({ ...ref, type: tab.type, itemId: deleting.id }).unwrap();
      notify.success(message);
    } catch (error) {
      notify.error(failText(error, actionFailText(store.platform, 'delete', tab.type)));
    } finally {
      setDeleting(null);
    }
  };

  const columns = columnsFor(tab, store);
  const actions = tab.deletable && mayWrite;
  const isOrder = tab.kind === 'order';
  const busy = running || syncing.isLoading || training.isLoading;
  const list = items.data;
  return (
    <Box>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} alignItems={{ md: 'center' }} sx={{ mb: 2 }}>
        <TextField
          size="small"
          label={`Search ${lower}`}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          sx={{ minWidth: 260 }}
        />
        <span style={{ flex: 1 }} />
        {mayWrite ? (
          <>
            <Button
              variant="outlined"
              onClick={onSync}
              disabled={busy}
              sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
            >
              Sync {lower}
            </Button>
            {tab.trainable ? (
              <Button
                variant="contained"
                onClick={onTrain}
                disabled={busy}
                sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
              >
                Train {lower}
              </Button>
            ) : null}
            {tab.trainable && store.platform === 'woocommerce' ? (
              <Button
                color="warning"
                onClick={onUntrain}
                disabled={busy || untraining.isLoading}
                sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
              >
                Remove training
              </Button>
            ) : null}
          </>
        ) : null}
      </Stack>
      {running && task ? (
        <Box sx={{ mb: 2 }}>
          <Typography variant="body2" sx={{ mb: 0.5 }}>
            {task.kind === 'sync' ? 'Syncing' : 'Training'} {lower}
            {job && job.total > 0 ? `: ${job.current} of ${job.total}` : '…'}
          </Typography>
          <LinearProgress
            variant={job && job.total > 0 ? 'determinate' : 'indeterminate'}
            value={clampPercent(job?.percentage)}
            aria-label={`${task.kind === 'sync' ? 'Sync' : 'Train'} ${lower} progress`}
          />
        </Box>
      ) : null}
      {items.isError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failText(items.error, actionFailText(store.platform, 'fetch', tab.type))}
        </Alert>
      ) : null}
      <Paper variant="outlined">
        {items.isFetching ? <LinearProgress aria-label={`Loading ${lower}`} /> : null}
        <TableContainer>
          <Table size="small" aria-label={tab.label}>
            <TableHead>
              <TableRow>
                {columns.map((column) => (
                  <TableCell key={column.label} align={column.align}>
                    {column.label}
                  </TableCell>
                ))}
                {actions || isOrder ? <TableCell align="right">Actions</TableCell> : null}
              </TableRow>
            </TableHead>
            <TableBody>
              {list && list.items.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={columns.length + 1}>
                    <Typography variant="body2" color="text.secondary">
                      {search ? `No ${lower} match “${search}”.` : `No ${lower} synced yet.`}
                    </Typography>
                  </TableCell>
                </TableRow>
              ) : null}
              {(list?.items ?? []).map((item) => {
                const name = isOrder
                  ? `Order ${(item.data as Partial<OrderData>).number ?? item.title}`
                  : item.title;
                return (
                  <TableRow
                    key={item.id}
                    aria-label={name}
                    hover={isOrder}
                    onClick={isOrder ? () => setOrder(item) : undefined}
                    sx={isOrder ? { cursor: 'pointer' } : undefined}
                  >
                    {columns.map((column) => (
                      <TableCell key={column.label} align={column.align}>
                        {column.cell(item)}
                      </TableCell>
                    ))}
                    {actions || isOrder ? (
                      <TableCell align="right" onClick={(event) => event.stopPropagation()}>
                        {isOrder ? (
                          <Button size="small" onClick={() => setOrder(item)} aria-label={`Open ${name}`}>
                            Open
                          </Button>
                        ) : null}
                        {actions ? (
                          <IconButton
                            size="small"
                            aria-label={`Delete ${item.title}`}
                            onClick={() => setDeleting(item)}
                          >
                            <DeleteOutline fontSize="small" />
                          </IconButton>
                        ) : null}
                      </TableCell>
                    ) : null}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
        {list ? (
          <TablePagination
            component="div"
            count={list.total_filtered}
            page={page}
            rowsPerPage={limit}
            rowsPerPageOptions={[10, 25, 50, 100]}
            onPageChange={(_event, next) => setPage(next)}
            onRowsPerPageChange={(event) => {
              setLimit(Number(event.target.value));
              setPage(0);
            }}
          />
        ) : null}
      </Paper>
      {order ? <OrderDialog store={store} order={order} onClose={() => setOrder(null)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.title ?? ''}?`}
        text={`It is removed from Parley and from what your bots learnt. The ${store.platform === 'shopify' ? 'Shopify' : 'WooCommerce'} store keeps it; the next sync brings it back.`}
        confirmLabel="Delete"
        busy={removing.isLoading}
        onConfirm={onDelete}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
