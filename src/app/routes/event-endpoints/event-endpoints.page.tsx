import { Button, Stack } from '@mantine/core';
import { IconBroadcast, IconPlus } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import type { EventEndpointWithSecret } from '../../api/gen/types.gen';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { SigningSecretNotice } from '../../components/signing-secret-notice';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { EventEndpointCreateModal } from '../../features/event-endpoints/event-endpoint-modals';
import { eventEndpointQueries } from '../../features/event-endpoints/event-endpoint-queries';
import { EVENT_ENDPOINT_COLUMNS, EventEndpointsTable } from '../../features/event-endpoints/event-endpoints-table';
import { parsePageParams, usePageParams } from '../../lib/use-page-params';

export function prefetch(queryClient: QueryClient, { request }: LoaderFunctionArgs) {
  const { page, perPage } = parsePageParams(new URL(request.url).searchParams);
  void queryClient.prefetchQuery(eventEndpointQueries.list({ page, per_page: perPage }));
}

export default function EventEndpointsPage() {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const endpoints = useQuery(eventEndpointQueries.list({ page, per_page: perPage }));
  const [creating, setCreating] = useState(false);
  // Held in memory only: the secret is gone once dismissed or the page is left.
  const [created, setCreated] = useState<EventEndpointWithSecret | null>(null);
  const canChange = useTeamRole().can('admin');

  const newEndpointButton = canChange && (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
      New endpoint
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Event endpoints"
        description="Herald pushes what happens in the team (messages, campaigns, opt-outs, inbound messages, imports, reports) to these URLs as it happens, signed with each endpoint's secret."
        actions={newEndpointButton}
      />
      <RoleNotice needs="admin" subject="event endpoints" />
      <Stack gap="lg">
        {created && <SigningSecretNotice title="Event endpoint created" secret={created.secret} onDismiss={() => setCreated(null)} />}
        {endpoints.isPending ? (
          <TableSkeleton columns={EVENT_ENDPOINT_COLUMNS} rows={3} />
        ) : endpoints.isError ? (
          <ErrorState title="The event endpoints could not be loaded." error={endpoints.error} onRetry={() => void endpoints.refetch()} />
        ) : endpoints.data.meta.total === 0 ? (
          <EmptyPanel
            icon={<IconBroadcast />}
            title="No event endpoints yet"
            description={
              canChange
                ? 'Add an endpoint to hear of deliveries, opt-outs, replies and finished reports as they happen, instead of asking the API.'
                : 'Event endpoints an admin adds show here.'
            }
            action={newEndpointButton}
          />
        ) : (
          <div>
            <EventEndpointsTable endpoints={endpoints.data.data} />
            <PaginationBar
              meta={endpoints.data.meta}
              perPage={perPage}
              onPageChange={setPage}
              onPerPageChange={setPerPage}
              noun={{ one: 'endpoint', other: 'endpoints' }}
            />
          </div>
        )}
      </Stack>
      {canChange && <EventEndpointCreateModal opened={creating} onClose={() => setCreating(false)} onCreated={setCreated} />}
    </>
  );
}
