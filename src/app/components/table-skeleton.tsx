import { Paper, Skeleton, Table } from '@mantine/core';
import { TableScroll } from './table-scroll';

interface TableSkeletonProps {
  columns: readonly string[];
  rows?: number;
}

/** The table's own header over placeholder rows, so the page does not jump when the data arrives. */
export function TableSkeleton({ columns, rows = 5 }: TableSkeletonProps) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={560}>
        <Table aria-busy="true" aria-label="Loading">
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {Array.from({ length: rows }, (_, row) => (
              <Table.Tr key={row}>
                {columns.map((column) => (
                  <Table.Td key={column}>
                    <Skeleton height={14} radius="sm" />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}
