import TableCell from '@mui/material/TableCell';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { type ReactNode, useCallback, useState } from 'react';

export type TablePagerProps = {
  total: number;
  /** Counted from 0, as MUI does. */
  page: number;
  size: number;
  sizes: readonly number[];
  onChange: (page: number, size: number) => void;
};

/** Paging under a table; a new page size starts again at the first page. */
export function TablePager({ total, page, size, sizes, onChange }: TablePagerProps) {
  return (
    <TablePagination
      component="div"
      count={total}
      page={page}
      rowsPerPage={size}
      rowsPerPageOptions={[...sizes]}
      onPageChange={(_event, next) => onChange(next, size)}
      onRowsPerPageChange={(event) => onChange(0, Number(event.target.value))}
    />
  );
}

/**
 * The page and size of a paged table, counting pages from 0; spread `pagerProps(total)` on a
 * TablePager. `reset` goes back to the first page, for when a filter changes what is listed.
 */
export function usePaging(sizes: readonly [number, ...number[]], initialSize = sizes[0]) {
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(initialSize);
  const reset = useCallback(() => setPage(0), []);
  const pagerProps = (total: number): TablePagerProps => ({
    total,
    page,
    size,
    sizes,
    onChange: (nextPage, nextSize) => {
      setPage(nextPage);
      setSize(nextSize);
    },
  });
  return { page, size, reset, pagerProps };
}

/** The one row a table shows when it has nothing to list. */
export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={columns}>{children}</TableCell>
    </TableRow>
  );
}
