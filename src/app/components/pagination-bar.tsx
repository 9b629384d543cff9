import { Group, Pagination, Select, Text } from '@mantine/core';
import { PAGE_SIZES } from '../lib/use-page-params';

/** The `meta` of the list envelope, as much of it as the bar shows. */
export interface PageMeta {
  current_page: number;
  last_page: number;
  from: number | null;
  to: number | null;
  total: number;
}

interface PaginationBarProps {
  meta: PageMeta;
  perPage: number;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
  /** The items' noun, e.g. `{ one: 'sender', other: 'senders' }`. */
  noun: { one: string; other: string };
}

const PAGE_SIZE_OPTIONS = PAGE_SIZES.map((size) => ({ value: String(size), label: `${size} per page` }));

export function PaginationBar({ meta, perPage, onPageChange, onPerPageChange, noun }: PaginationBarProps) {
  const items = `${meta.total} ${meta.total === 1 ? noun.one : noun.other}`;
  const summary = meta.from !== null && meta.to !== null ? `${meta.from}–${meta.to} of ${items}` : `None of ${items} on this page`;
  return (
    <Group justify="space-between" mt="md" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {summary}
      </Text>
      <Group gap="md">
        <Select
          aria-label="Page size"
          data={PAGE_SIZE_OPTIONS}
          value={String(perPage)}
          onChange={(value) => value && onPerPageChange(Number(value))}
          allowDeselect={false}
          w={140}
          size="xs"
        />
        <Pagination
          total={meta.last_page}
          value={meta.current_page}
          onChange={onPageChange}
          size="sm"
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
        />
      </Group>
    </Group>
  );
}
