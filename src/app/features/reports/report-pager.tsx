import { Group, Pagination, Select, Text } from '@mantine/core';
import { useId } from 'react';
import type { PageMeta } from '../../api/gen/types.gen';
import { rowRange } from './report-format';
import { REPORT_PAGE_SIZES } from './use-report-params';

interface ReportPagerProps {
  meta: PageMeta;
  /** The page asked for (the URL's): the one to mark while it loads. */
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
  onPerPageChange: (perPage: number) => void;
}

const PAGE_SIZE_OPTIONS = REPORT_PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }));

/** "Rows 16–30 of 40", the page size and the pages of one report. */
export function ReportPager({ meta, page, perPage, onPageChange, onPerPageChange }: ReportPagerProps) {
  const sizeId = useId();
  return (
    <Group justify="space-between" mt="md" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {rowRange(meta)}
      </Text>
      <Group gap="lg">
        <Group gap="xs" wrap="nowrap">
          <Text component="label" htmlFor={sizeId} size="sm">
            Rows per page
          </Text>
          <Select
            id={sizeId}
            data={PAGE_SIZE_OPTIONS}
            value={String(perPage)}
            onChange={(value) => value && onPerPageChange(Number(value))}
            allowDeselect={false}
            w={80}
            size="xs"
          />
        </Group>
        <Pagination
          total={meta.last_page}
          value={Math.min(page, meta.last_page)}
          onChange={onPageChange}
          size="sm"
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
        />
      </Group>
    </Group>
  );
}
