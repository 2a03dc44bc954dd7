import TableCell from '@mui/material/TableCell';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';

type TablePagerProps = {
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

/** The one row a table shows when it has nothing to list. */
export function EmptyRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={columns}>{children}</TableCell>
    </TableRow>
  );
}
