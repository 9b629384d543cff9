import { Alert, Box, Button } from '@mantine/core';
import { IconAlertTriangle, IconFilterOff, IconHistory } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { TableSkeleton } from '../../components/table-skeleton';
import { downloadAuditLog } from '../../features/audit/audit-export';
import { AUDIT_COLUMNS, AuditEventsTable } from '../../features/audit/audit-events-table';
import { auditFilterErrors, hasAuditFilters, parseAuditFilters, useAuditFilters } from '../../features/audit/audit-filters';
import { AuditFiltersForm } from '../../features/audit/audit-filters-form';
import { auditQueries } from '../../features/audit/audit-queries';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { notifyFailure } from '../../lib/notify';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';

const NO_ERRORS = {};

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const search = new URL(request.url).searchParams;
  const { page, perPage } = parsePageParams(search);
  void queryClient.prefetchQuery(auditQueries.list({ page, per_page: perPage, filters: parseAuditFilters(search) }));
  void queryClient.prefetchQuery(currentUserQueries.me());
}

/** The team's audit log (every role reads it): who changed what and when, filtered by what is in the URL. */
export default function AuditPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const { filters, setFilters, resetFilters } = useAuditFilters();
  const events = useQuery(auditQueries.list({ page, per_page: perPage, filters }));
  const me = useQuery(currentUserQueries.me());
  // One object per failure: the form marks its fields once, not on every render.
  const filterErrors = useMemo(() => auditFilterErrors(events.error), [events.error]);
  const [exporting, setExporting] = useState(false);
  const filtered = hasAuditFilters(filters);

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadAuditLog(filters);
    } catch (error) {
      notifyFailure('The audit log could not be exported', error);
    } finally {
      setExporting(false);
    }
  };

  const resetButton = (
    <Button variant="default" onClick={resetFilters}>
      Reset filters
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who changed what, and when: every change made in the dashboard or through the API, sign-ins and refused edits. Nobody can change or delete an event."
      />
      {me.data && (
        <AuditFiltersForm
          filters={filters}
          timeZone={me.data.app_timezone}
          serverErrors={filterErrors ?? NO_ERRORS}
          onApply={setFilters}
          onReset={resetFilters}
          onExport={() => void exportCsv()}
          exporting={exporting}
          canExport={!filterErrors}
        />
      )}
      {events.isPending ? (
        <TableSkeleton columns={AUDIT_COLUMNS} />
      ) : filterErrors ? (
        <Alert color="yellow" variant="light" title="These filters cannot be used" icon={<IconAlertTriangle />}>
          Correct the filters marked above, or reset them.
        </Alert>
      ) : events.isError ? (
        <ErrorState title="The audit log could not be loaded." error={events.error} onRetry={() => void events.refetch()} />
      ) : events.data.meta.total === 0 ? (
        filtered ? (
          <EmptyPanel
            icon={<IconFilterOff />}
            title="No events match these filters"
            description="Try other filters, or reset them to see every event."
            action={resetButton}
          />
        ) : (
          <EmptyPanel icon={<IconHistory />} title="No events yet" description="Changes, sign-ins and refused edits show here as they happen." />
        )
      ) : (
        <Box aria-busy={events.isPlaceholderData} style={{ opacity: events.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}>
          <AuditEventsTable events={events.data.data} resourceUuid={filters.resource_uuid} />
          <PaginationBar
            meta={events.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'event', other: 'events' }}
          />
        </Box>
      )}
    </>
  );
}
