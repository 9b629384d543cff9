import { Group, Pagination, Skeleton, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ContactImport } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { ErrorState } from '../../components/error-state';
import { formatCount, formatTimestamp } from '../../lib/format';
import { contactGroupKeys } from './contact-group-queries';
import { contactImportQueries, isImportUnderWay } from './contact-import-queries';
import { ContactImportStatusBadge } from './contact-import-status-badge';

const IMPORTS_PER_PAGE = 5;

function count(value: number): string {
  return formatCount(value);
}

function Progress({ contactImport }: { contactImport: ContactImport }) {
  if (!isImportUnderWay(contactImport)) return null;
  return (
    <Text span size="xs" c="dimmed" ml={6}>
      {contactImport.percent === null ? `${count(contactImport.rows_total)} rows` : `${contactImport.percent}%`}
    </Text>
  );
}

/** The written counts of an import that did not complete are not known: a dash. */
const written = (contactImport: ContactImport, value: number) => (contactImport.status === 'completed' ? count(value) : '—');

const COLUMNS: DataColumn<ContactImport>[] = [
  { key: 'started', header: 'Started', cell: (contactImport) => formatTimestamp(contactImport.created_at) },
  {
    key: 'file',
    header: 'File',
    cellProps: { maw: 260 },
    cell: (contactImport) => (
      <Text size="sm" truncate="end" c={contactImport.file_name ? undefined : 'dimmed'}>
        {contactImport.file_name ?? 'No name'}
      </Text>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    cell: (contactImport) => (
      <>
        {contactImport.status === 'failed' && contactImport.error ? (
          <Tooltip label={contactImport.error} multiline w={320}>
            <span tabIndex={0} aria-label={`Failed: ${contactImport.error}`}>
              <ContactImportStatusBadge status={contactImport.status} />
            </span>
          </Tooltip>
        ) : (
          <ContactImportStatusBadge status={contactImport.status} />
        )}
        <Progress contactImport={contactImport} />
      </>
    ),
  },
  { key: 'rows', header: 'Rows', align: 'right', cell: (contactImport) => count(contactImport.rows_total) },
  { key: 'added', header: 'Added', align: 'right', cell: (contactImport) => written(contactImport, contactImport.contacts_added) },
  { key: 'updated', header: 'Updated', align: 'right', cell: (contactImport) => written(contactImport, contactImport.contacts_updated) },
  { key: 'left_out', header: 'Left out', align: 'right', cell: (contactImport) => count(contactImport.rows_invalid) },
];

/**
 * An import may end while nobody waits for its request (the modal was closed, or another tab or an
 * API client started it): when the list sees it end, the group's count and contacts are read again.
 */
function useRefreshGroupWhenImportEnds(groupUuid: string, underWay: boolean) {
  const queryClient = useQueryClient();
  const wasUnderWay = useRef(underWay);
  useEffect(() => {
    if (wasUnderWay.current && !underWay) {
      void queryClient.invalidateQueries({ queryKey: contactGroupKeys.detail(groupUuid) });
      void queryClient.invalidateQueries({ queryKey: contactGroupKeys.lists() });
    }
    wasUnderWay.current = underWay;
  }, [groupUuid, underWay, queryClient]);
}

/** The group's latest imports; the list reads itself again while one is under way. */
export function RecentContactImports({ groupUuid }: { groupUuid: string }) {
  const [page, setPage] = useState(1);
  const imports = useQuery(contactImportQueries.list(groupUuid, { page, per_page: IMPORTS_PER_PAGE }));
  useRefreshGroupWhenImportEnds(groupUuid, imports.data?.data.some(isImportUnderWay) ?? false);

  return (
    <Stack gap="xs" mt="xl" component="section" aria-labelledby="recent-imports-title">
      <Title order={2} size="h4" id="recent-imports-title">
        Recent imports
      </Title>
      {imports.isPending ? (
        <Skeleton height={80} radius="md" />
      ) : imports.isError ? (
        <ErrorState title="The imports could not be loaded." error={imports.error} onRetry={() => void imports.refetch()} />
      ) : imports.data.meta.total === 0 ? (
        <Text size="sm" c="dimmed">
          No file has been imported into this group yet.
        </Text>
      ) : (
        <>
          <DataTable label="Recent imports" columns={COLUMNS} rows={imports.data.data} rowKey={(contactImport) => contactImport.uuid} minWidth={720} />
          {imports.data.meta.last_page > 1 && (
            <Group justify="flex-end">
              <Pagination
                size="sm"
                total={imports.data.meta.last_page}
                value={page}
                onChange={setPage}
                getControlProps={(control) => ({ 'aria-label': `${control} page of imports` })}
                getItemProps={(item) => ({ 'aria-label': `Page ${item} of imports` })}
              />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
