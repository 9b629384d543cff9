/**
 * The dashboard's one table: a real table with column headers, sortable ones announced by aria-sort,
 * row actions as named buttons in the keyboard's order, placeholder rows, the empty state instead.
 * Dropping `scope`/`aria-sort` from DataTable, or rendering the actions as icons without names,
 * turns these red (checked once). A row-header column (a comparison's figures) is a `th scope="row"`
 * that names its row: rendering it as a plain cell turns its test red (checked once).
 */
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '../testing/render';
import { DataTable, type DataColumn, type DataSort, type RowAction } from './data-table';

interface Fruit {
  id: string;
  name: string;
  count: number;
}

const FRUITS: Fruit[] = [
  { id: 'a', name: 'Apple', count: 3 },
  { id: 'b', name: 'Banana', count: 12 },
];

const COLUMNS: DataColumn<Fruit>[] = [
  { key: 'name', header: 'Name', cell: (fruit) => fruit.name, sortable: true },
  { key: 'count', header: 'Count', cell: (fruit) => fruit.count, align: 'right', sortable: true },
];

function SortedFruits() {
  const [sort, setSort] = useState<DataSort>({ key: 'name', direction: 'asc' });
  const rows = [...FRUITS].sort((a, b) => {
    const order = sort.key === 'name' ? a.name.localeCompare(b.name) : a.count - b.count;
    return sort.direction === 'asc' ? order : -order;
  });
  return <DataTable label="Fruit" columns={COLUMNS} rows={rows} rowKey={(fruit) => fruit.id} sort={sort} onSortChange={setSort} />;
}

describe('DataTable', () => {
  it('is a named table with column headers, one row per item and named row actions in order', async () => {
    const onDelete = vi.fn();
    const actions: RowAction<Fruit>[] = [
      { label: 'Edit', name: (fruit) => `Edit ${fruit.name}`, icon: 'E', href: (fruit) => `/fruit/${fruit.id}` },
      { label: 'Delete', name: (fruit) => `Delete ${fruit.name}`, icon: 'D', color: 'red', onClick: onDelete, hidden: (fruit) => fruit.id === 'a' },
    ];
    const { user } = render(
      <DataTable
        label="Fruit"
        columns={COLUMNS.map((column) => ({ ...column, sortable: false }))}
        rows={FRUITS}
        rowKey={(fruit) => fruit.id}
        actions={actions}
      />,
    );

    const table = screen.getByRole('table', { name: 'Fruit' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Name', 'Count', 'Actions']);
    headers.forEach((header) => expect(header).toHaveAttribute('scope', 'col'));
    expect(headers[0]).not.toHaveAttribute('aria-sort');
    const [, apple, banana] = within(table).getAllByRole('row');
    expect(
      within(apple!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Apple', '3', 'E']);
    expect(within(apple!).getByRole('link', { name: 'Edit Apple' })).toHaveAttribute('href', '/fruit/a');
    expect(within(apple!).queryByRole('button', { name: 'Delete Apple' })).not.toBeInTheDocument();

    // By keyboard: Tab reaches Banana's actions in order, Enter deletes.
    within(banana!).getByRole('link', { name: 'Edit Banana' }).focus();
    await user.tab();
    expect(within(banana!).getByRole('button', { name: 'Delete Banana' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onDelete).toHaveBeenCalledWith(FRUITS[1]);
  });

  it('announces the sort on its headers and asks for the other order from a header button', async () => {
    const { user } = render(<SortedFruits />);
    const table = screen.getByRole('table', { name: 'Fruit' });
    const [name, count] = within(table).getAllByRole('columnheader');
    expect(name).toHaveAttribute('aria-sort', 'ascending');
    expect(count).toHaveAttribute('aria-sort', 'none');

    await user.click(within(name!).getByRole('button', { name: 'Name' }));
    expect(name).toHaveAttribute('aria-sort', 'descending');
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Banana');

    within(count!).getByRole('button', { name: 'Count' }).focus();
    await user.keyboard('{Enter}');
    expect(count).toHaveAttribute('aria-sort', 'ascending');
    expect(name).toHaveAttribute('aria-sort', 'none');
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('Apple');
  });

  it('shows its header over placeholder rows while loading, and the empty state when there is nothing', () => {
    const { rerender } = render(
      <DataTable label="Fruit" columns={COLUMNS} rows={undefined} rowKey={(fruit) => fruit.id} loading loadingRows={2} empty="No fruit yet" />,
    );
    const loading = screen.getByRole('table', { name: 'Loading' });
    expect(loading).toHaveAttribute('aria-busy', 'true');
    expect(within(loading).getAllByRole('row')).toHaveLength(3);
    expect(
      within(loading)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Count']);

    rerender(<DataTable label="Fruit" columns={COLUMNS} rows={[]} rowKey={(fruit) => fruit.id} empty="No fruit yet" />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByText('No fruit yet')).toBeInTheDocument();
  });

  it('names each row by its row-header column, under headers that may hold more than words', () => {
    render(
      <DataTable
        label="Fruit compared"
        columns={[
          { key: 'name', header: 'Fruit', rowHeader: true, cell: (fruit: Fruit) => fruit.name },
          { key: 'count', header: <a href="/baskets/1">Basket 1</a>, align: 'right', cell: (fruit: Fruit) => fruit.count },
        ]}
        rows={FRUITS}
        rowKey={(_fruit, index) => String(index)}
      />,
    );
    const table = screen.getByRole('table', { name: 'Fruit compared' });
    expect(within(table).getByRole('columnheader', { name: 'Basket 1' })).toContainElement(within(table).getByRole('link', { name: 'Basket 1' }));
    const banana = within(table).getByRole('rowheader', { name: 'Banana' });
    expect(banana).toHaveAttribute('scope', 'row');
    expect(within(table).getByRole('row', { name: 'Banana 12' })).toContainElement(banana);
    expect(
      within(table)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['3', '12']);
  });
});
