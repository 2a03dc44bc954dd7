import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { CRAWLED_PAGES_PAGE_SIZE, MESSAGES } from '@parley/contracts';
import { useState } from 'react';
import { serverDetail } from '../../../shared/api/errors';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useDeletePageMutation, useDeletePagesMutation, useWebSourcePagesQuery } from '../api';

/** One web source's pages, 20 at a time, with selection, bulk delete and delete per page. */
export function WebSourcePages({ sourceId }: { sourceId: number }) {
  const notify = useNotify();
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState<number[]>([]);
  const skip = page * CRAWLED_PAGES_PAGE_SIZE;
  const { data, isError, error } = useWebSourcePagesQuery({ sourceId, skip, limit: CRAWLED_PAGES_PAGE_SIZE });
  const [deletePage] = useDeletePageMutation();
  const [deletePages, bulk] = useDeletePagesMutation();
  const rows = data?.pages ?? [];
  const allSelected = rows.length > 0 && rows.every((r) => selected.includes(r.page_id));

  if (isError)
    return <Typography color="error">{serverDetail(error) ?? MESSAGES.crawler.fetchPagesFailed}</Typography>;

  const removeOne = async (id: number) => {
    try {
      const reply = await deletePage(id).unwrap();
      notify.success(reply.message || MESSAGES.crawler.pageDeleted);
      setSelected((s) => s.filter((x) => x !== id));
    } catch (e) {
      notify.error(serverDetail(e) ?? MESSAGES.crawler.deletePageFailed);
    }
  };
  const removeSelected = async () => {
    try {
      const reply = await deletePages({ page_ids: selected }).unwrap();
      notify.success(reply.message || MESSAGES.crawler.pagesDeleted);
      setSelected([]);
    } catch (e) {
      notify.error(serverDetail(e) ?? MESSAGES.crawler.deletePagesFailed);
    }
  };

  return (
    <>
      <Button
        color="error"
        size="small"
        disabled={selected.length === 0 || bulk.isLoading}
        onClick={removeSelected}
        sx={{ mb: 1 }}
      >
        Delete selected ({selected.length})
      </Button>
      <Table size="small" aria-label="Crawled pages">
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox">
              <Checkbox
                checked={allSelected}
                onChange={(e) =>
                  setSelected(
                    e.target.checked ? [...new Set([...selected, ...rows.map((r) => r.page_id)])] : [],
                  )
                }
                inputProps={{ 'aria-label': 'Select all pages' }}
              />
            </TableCell>
            <TableCell>Page</TableCell>
            <TableCell align="right">Characters</TableCell>
            <TableCell>Crawled</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.page_id} data-testid="crawled-page">
              <TableCell padding="checkbox">
                <Checkbox
                  checked={selected.includes(row.page_id)}
                  onChange={(e) =>
                    setSelected((s) =>
                      e.target.checked ? [...s, row.page_id] : s.filter((x) => x !== row.page_id),
                    )
                  }
                  inputProps={{ 'aria-label': `Select ${row.url}` }}
                />
              </TableCell>
              <TableCell>
                <Typography variant="body2">{row.title ?? row.url}</Typography>
                <Link href={row.url} target="_blank" rel="noopener noreferrer" variant="caption">
                  {row.url}
                </Link>
              </TableCell>
              <TableCell align="right">{row.character_count.toLocaleString()}</TableCell>
              <TableCell>{new Date(row.crawled_at).toLocaleString()}</TableCell>
              <TableCell align="right">
                <IconButton
                  aria-label={`Delete ${row.url}`}
                  onClick={() => removeOne(row.page_id)}
                  size="small"
                >
                  ✕
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={data?.total ?? 0}
        page={page}
        onPageChange={(_e, next) => {
          setPage(next);
          setSelected([]);
        }}
        rowsPerPage={CRAWLED_PAGES_PAGE_SIZE}
        rowsPerPageOptions={[CRAWLED_PAGES_PAGE_SIZE]}
      />
    </>
  );
}
