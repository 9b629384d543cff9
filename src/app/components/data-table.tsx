import {
  ActionIcon,
  Group,
  Paper,
  Skeleton,
  Table,
  Tooltip,
  UnstyledButton,
  type MantineColor,
  type TableProps,
  type TableTdProps,
  type TableThProps,
  type TableTrProps,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { TableScroll } from './table-scroll';

/** One column: its header, and what each row shows in it. */
export interface DataColumn<Row> {
  /** Unique among the columns; the sort key of a sortable column. */
  key: string;
  /** Words, or more (a campaign's name as a link over its date); a sortable column's header is its button's name. */
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** The column names its row (a `th scope="row"`): the figure of a comparison. */
  rowHeader?: boolean;
  /** The header is a button that asks for the rows in this column's order (`onSortChange`). */
  sortable?: boolean;
  align?: 'left' | 'center' | 'right';
  /** The column's width (Mantine's style prop: a number, a string, or one per breakpoint). */
  width?: TableThProps['w'];
  /** More of Mantine's header cell props (`visibleFrom` to drop the column on a phone). */
  headerProps?: TableThProps;
  /** More of Mantine's cell props (a maximum width, a font, `visibleFrom`), for every row or by row. */
  cellProps?: TableTdProps | ((row: Row) => TableTdProps);
}

/** A button (or a link, with `href`) at the end of each row, named for the row for screen readers. */
export interface RowAction<Row> {
  /** The tooltip, "Edit". */
  label: string;
  /** The accessible name, naming the row: "Edit AcmeShop". */
  name: (row: Row) => string;
  icon: ReactNode;
  color?: MantineColor;
  onClick?: (row: Row) => void;
  href?: (row: Row) => string;
  /** Rows without this action (e.g. your own membership). */
  hidden?: (row: Row) => boolean;
  /** Shown but not usable (a locked template's links). */
  disabled?: boolean | ((row: Row) => boolean);
}

export interface DataSort {
  key: string;
  direction: 'asc' | 'desc';
}

interface DataTableProps<Row> {
  /** The table's accessible name, "Senders". */
  label: string;
  columns: ReadonlyArray<DataColumn<Row>>;
  /** Undefined while loading. */
  rows: readonly Row[] | undefined;
  /** The row's identity; with its index for records that have no id of their own (a contact's clicks and opt-out events). */
  rowKey: (row: Row, index: number) => string;
  /** Absent or empty: no actions column. */
  actions?: ReadonlyArray<RowAction<Row>>;
  actionsHeader?: string;
  /** What a row shows instead of its action buttons, when it has no actions ("Built in"). */
  actionsInstead?: (row: Row) => ReactNode;
  /** Placeholder rows under the real header, so the page does not jump when the data arrives. */
  loading?: boolean;
  /** How many placeholder rows (5). */
  loadingRows?: number;
  /** The next page is loading: the rows on screen are the previous page's (dimmed, `aria-busy`). */
  busy?: boolean;
  /** Shown instead of the table when there are no rows (an EmptyPanel). */
  empty?: ReactNode;
  /** Below this width (a phone) the table scrolls sideways instead of squeezing its columns. */
  minWidth?: number;
  sort?: DataSort;
  onSortChange?: (sort: DataSort) => void;
  rowProps?: (row: Row) => TableTrProps;
  /** Mantine's table props: spacing, striping, layout. */
  tableProps?: Omit<TableProps, 'children'>;
  /** Inside a bordered panel (the default), or bare inside a card of its own. */
  withPanel?: boolean;
}

function SortHeader({ column, sort, onSortChange }: { column: DataColumn<unknown>; sort?: DataSort; onSortChange?: (sort: DataSort) => void }) {
  const active = sort?.key === column.key ? sort.direction : undefined;
  const Icon = active === 'asc' ? IconArrowUp : active === 'desc' ? IconArrowDown : IconArrowsSort;
  return (
    <Table.Th
      scope="col"
      ta={column.align}
      w={column.width}
      {...column.headerProps}
      aria-sort={active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : 'none'}
    >
      <UnstyledButton
        fz="inherit"
        fw="inherit"
        onClick={() => onSortChange?.({ key: column.key, direction: active === 'asc' ? 'desc' : 'asc' })}
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        {column.header}
        <Icon size={14} aria-hidden />
      </UnstyledButton>
    </Table.Th>
  );
}

function Actions<Row>({ row, actions }: { row: Row; actions: ReadonlyArray<RowAction<Row>> }) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {actions
        .filter((action) => !action.hidden?.(row))
        .map((action) => {
          const disabled = typeof action.disabled === 'function' ? action.disabled(row) : action.disabled;
          return (
            <Tooltip key={action.label} label={action.label}>
              {action.href ? (
                <ActionIcon component={Link} to={action.href(row)} variant="subtle" color={action.color} aria-label={action.name(row)} disabled={disabled}>
                  {action.icon}
                </ActionIcon>
              ) : (
                <ActionIcon variant="subtle" color={action.color} aria-label={action.name(row)} onClick={() => action.onClick?.(row)} disabled={disabled}>
                  {action.icon}
                </ActionIcon>
              )}
            </Tooltip>
          );
        })}
    </Group>
  );
}

/**
 * The dashboard's one table: a real `<table>` named by `label`, a header of `th scope="col"` (sortable
 * ones with `aria-sort` and a button), one row per item (named by a `th scope="row"` when a column is
 * its `rowHeader`), the row's actions as named buttons at its end, placeholder rows while loading,
 * `empty` when there is nothing, and sideways scrolling on a phone.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  actions,
  actionsHeader = 'Actions',
  actionsInstead,
  loading = false,
  loadingRows = 5,
  busy,
  empty,
  minWidth = 560,
  sort,
  onSortChange,
  rowProps,
  tableProps,
  withPanel = true,
}: DataTableProps<Row>) {
  const showActions = Boolean(actions && actions.length > 0);
  if (!loading && rows && rows.length === 0 && empty !== undefined) return <>{empty}</>;

  const table = (
    <TableScroll minWidth={minWidth}>
      <Table aria-label={loading ? 'Loading' : label} aria-busy={loading || busy} {...tableProps}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) =>
              column.sortable && !loading ? (
                <SortHeader key={column.key} column={column as DataColumn<unknown>} sort={sort} onSortChange={onSortChange} />
              ) : (
                <Table.Th key={column.key} scope="col" ta={column.align} w={column.width} {...column.headerProps}>
                  {column.header}
                </Table.Th>
              ),
            )}
            {showActions && (
              <Table.Th scope="col" ta="right">
                {actionsHeader}
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading || !rows
            ? Array.from({ length: loadingRows }, (_, index) => (
                <Table.Tr key={index}>
                  {columns.map((column) => (
                    <Table.Td key={column.key} {...(typeof column.cellProps === 'function' ? undefined : column.cellProps)}>
                      <Skeleton height={14} radius="sm" />
                    </Table.Td>
                  ))}
                  {showActions && (
                    <Table.Td>
                      <Skeleton height={14} radius="sm" />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))
            : rows.map((row, index) => (
                <Table.Tr key={rowKey(row, index)} {...rowProps?.(row)}>
                  {columns.map((column) => {
                    const Cell = column.rowHeader ? Table.Th : Table.Td;
                    return (
                      <Cell
                        key={column.key}
                        scope={column.rowHeader ? 'row' : undefined}
                        ta={column.align}
                        {...(typeof column.cellProps === 'function' ? column.cellProps(row) : column.cellProps)}
                      >
                        {column.cell(row)}
                      </Cell>
                    );
                  })}
                  {showActions && <Table.Td>{actionsInstead?.(row) ?? <Actions row={row} actions={actions!} />}</Table.Td>}
                </Table.Tr>
              ))}
        </Table.Tbody>
      </Table>
    </TableScroll>
  );
  return withPanel ? (
    <Paper withBorder radius="md" style={busy === undefined ? undefined : { opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' }}>
      {table}
    </Paper>
  ) : (
    table
  );
}
