import { Button, Group, Select, TextInput } from '@mantine/core';
import { IconSearch, IconX } from '@tabler/icons-react';
import { DELIVERY_STATUSES, NUMBER_SEARCH_MAX, UNSENT_REASONS, type DeliveryStatus, type ReportType, type UnsentReason } from '../../../shared/contract';
import { describeFailureReason } from './report-format';
import { REPORT_FILTERS, type ReportFilterParams } from './use-report-params';

const STATUS_OPTIONS = DELIVERY_STATUSES.map((status) => ({ value: status, label: status }));
const REASON_OPTIONS = UNSENT_REASONS.map((reason) => ({ value: reason, label: describeFailureReason(reason) }));

interface ReportFiltersProps {
  type: ReportType;
  filters: ReportFilterParams;
  /** What the number box shows: what is typed, until the URL follows. */
  searchText: string;
  onSearchTextChange: (text: string) => void;
  onStatusChange: (status: DeliveryStatus | undefined) => void;
  onReasonChange: (reason: UnsentReason | undefined) => void;
  onClear: () => void;
}

/** The filters a report takes (status, reason, the number), above its table; each is in the URL. */
export function ReportFilters({ type, filters, searchText, onSearchTextChange, onStatusChange, onReasonChange, onClear }: ReportFiltersProps) {
  const takes = REPORT_FILTERS[type];
  if (!takes.search && !takes.status && !takes.reason) return null;
  const filtered = filters.status !== undefined || filters.reason !== undefined || filters.search !== undefined || searchText.trim() !== '';
  return (
    <Group role="search" aria-label="Filter the report" gap="sm" align="flex-end" wrap="wrap">
      {takes.search && (
        <TextInput
          label="Number"
          placeholder="Digits, e.g. 7700 900"
          inputMode="tel"
          leftSection={<IconSearch size={16} aria-hidden />}
          maxLength={NUMBER_SEARCH_MAX}
          value={searchText}
          onChange={(event) => onSearchTextChange(event.currentTarget.value)}
          w={{ base: '100%', xs: 220 }}
        />
      )}
      {takes.status && (
        <Select
          label="Status"
          placeholder="Any status"
          data={STATUS_OPTIONS}
          value={filters.status ?? null}
          onChange={(value) => onStatusChange((value ?? undefined) as DeliveryStatus | undefined)}
          clearable
          w={{ base: '100%', xs: 180 }}
        />
      )}
      {takes.reason && (
        <Select
          label="Reason"
          placeholder="Any reason"
          data={REASON_OPTIONS}
          value={filters.reason ?? null}
          onChange={(value) => onReasonChange((value ?? undefined) as UnsentReason | undefined)}
          clearable
          w={{ base: '100%', xs: 260 }}
        />
      )}
      {filtered && (
        <Button variant="subtle" leftSection={<IconX size={16} aria-hidden />} onClick={onClear}>
          Clear filters
        </Button>
      )}
    </Group>
  );
}
