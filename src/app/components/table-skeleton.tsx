import { DataTable } from './data-table';

interface TableSkeletonProps {
  columns: readonly string[];
  rows?: number;
}

/** The table's own header over placeholder rows, so the page does not jump when the data arrives (DataTable's loading state). */
export function TableSkeleton({ columns, rows = 5 }: TableSkeletonProps) {
  return (
    <DataTable
      label="Loading"
      loading
      loadingRows={rows}
      rows={undefined}
      rowKey={() => ''}
      columns={columns.map((column) => ({ key: column, header: column, cell: () => null }))}
    />
  );
}
