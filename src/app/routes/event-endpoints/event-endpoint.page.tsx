import { Anchor, Breadcrumbs, Button, Group, Menu, SegmentedControl, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconChevronDown, IconHistory, IconKey, IconPencil, IconSend, IconTrash } from '@tabler/icons-react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { EVENT_DELIVERY_STATUSES } from '../../../shared/contract';
import { isApiError } from '../../api/api-error';
import type { EventDelivery, EventEndpoint, EventEndpointWithSecret } from '../../api/gen/types.gen';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PaginationBar } from '../../components/pagination-bar';
import { SigningSecretNotice } from '../../components/signing-secret-notice';
import { TableSkeleton } from '../../components/table-skeleton';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { EVENT_DELIVERY_COLUMNS, EventDeliveriesTable } from '../../features/event-endpoints/event-deliveries-table';
import { DELIVERY_STATUS_LABELS } from '../../features/event-endpoints/event-delivery-status-badge';
import { EventDeliveryModal } from '../../features/event-endpoints/event-delivery-modal';
import { EventEndpointEditModal } from '../../features/event-endpoints/event-endpoint-modals';
import { useTestEventEndpoint, useUpdateEventEndpoint } from '../../features/event-endpoints/event-endpoint-mutations';
import { eventEndpointQueries } from '../../features/event-endpoints/event-endpoint-queries';
import { EventEndpointSettings } from '../../features/event-endpoints/event-endpoint-settings';
import { EventEndpointStatusAlert } from '../../features/event-endpoints/event-endpoint-status';
import { useConfirmEventEndpointDeletion, useConfirmEventEndpointSecretRotation } from '../../features/event-endpoints/use-confirm-event-endpoint-actions';
import { notifyFailure, notifySuccess, notifyTestCall } from '../../lib/notify';
import { parsePageParams, usePageParams, useSetFilterParam } from '../../lib/use-page-params';
import { paths } from '../../paths';

const ALL = 'all';
/** While a delivery on this page is on its way, how often the list asks again. */
const PENDING_REFRESH_MS = 5_000;

/** `?status=` pending, delivered or failed; anything else shows every delivery. */
function parseStatus(search: URLSearchParams): EventDelivery['status'] | undefined {
  return EVENT_DELIVERY_STATUSES.find((status) => status === search.get('status'));
}

export function prefetch(queryClient: QueryClient, { params, request }: LoaderFunctionArgs) {
  if (!params.uuid) return;
  const search = new URL(request.url).searchParams;
  const { page, perPage } = parsePageParams(search);
  void queryClient.prefetchQuery(eventEndpointQueries.detail(params.uuid));
  void queryClient.prefetchQuery(eventEndpointQueries.deliveries(params.uuid, { page, per_page: perPage, status: parseStatus(search) }));
}

function EndpointBreadcrumbs({ current }: { current: string }) {
  return (
    <Breadcrumbs mb="xs" styles={{ root: { flexWrap: 'wrap' }, breadcrumb: { overflowWrap: 'anywhere' } }}>
      <Anchor component={Link} to={paths.eventEndpoints.list.getHref()} size="sm">
        Event endpoints
      </Anchor>
      <Text size="sm">{current}</Text>
    </Breadcrumbs>
  );
}

/** The URL's host, e.g. `crm.example.com`: a title that fits a phone, where a whole URL would not. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export default function EventEndpointPage() {
  const { uuid = '' } = useParams();
  const endpoint = useQuery(eventEndpointQueries.detail(uuid));

  if (endpoint.isPending) {
    return (
      <>
        <EndpointBreadcrumbs current="Event endpoint" />
        <PageHeader title="Event endpoint" />
        <Stack aria-busy="true" aria-label="Loading">
          <Skeleton height={180} radius="md" />
          <TableSkeleton columns={EVENT_DELIVERY_COLUMNS} />
        </Stack>
      </>
    );
  }
  if (endpoint.isError) {
    const notFound = isApiError(endpoint.error) && endpoint.error.status === 404;
    return (
      <>
        <EndpointBreadcrumbs current="Event endpoint" />
        <PageHeader title="Event endpoint" />
        <ErrorState title="The event endpoint could not be loaded." error={endpoint.error} onRetry={() => void endpoint.refetch()} />
        {notFound && (
          <Text size="sm" mt="md">
            If a link brought you here, the endpoint may belong to another of your teams: choose that team in the header and open the link again.
          </Text>
        )}
      </>
    );
  }
  return <EventEndpointView endpoint={endpoint.data} />;
}

function EventEndpointView({ endpoint }: { endpoint: EventEndpoint }) {
  const navigate = useNavigate();
  const canChange = useTeamRole().can('admin');
  const [editing, setEditing] = useState(false);
  // Held in memory only: the secret is gone once dismissed or the page is left.
  const [rotated, setRotated] = useState<EventEndpointWithSecret | null>(null);
  const update = useUpdateEventEndpoint();
  const test = useTestEventEndpoint(endpoint.uuid);
  const confirmRotation = useConfirmEventEndpointSecretRotation(setRotated);
  const confirmDeletion = useConfirmEventEndpointDeletion(() => void navigate(paths.eventEndpoints.list.getHref()));

  const setEnabled = (enabled: boolean) =>
    update.mutate(
      { uuid: endpoint.uuid, patch: { enabled } },
      {
        onSuccess: () =>
          notifySuccess(
            enabled
              ? 'The endpoint is enabled: Herald records its events and sends what is pending.'
              : 'The endpoint is disabled: Herald records no events for it until it is enabled again.',
          ),
        onError: (error) => notifyFailure(enabled ? 'The endpoint could not be enabled' : 'The endpoint could not be disabled', error),
      },
    );

  const sendTest = () =>
    test.mutate(undefined, {
      onSuccess: (delivery) =>
        notifyTestCall({ statusCode: delivery.last_status_code, latencyMs: delivery.attempt_log.at(-1)?.latency_ms ?? 0, error: delivery.last_error }),
      onError: (error) => notifyFailure('The test event could not be sent', error),
    });

  const title = endpoint.description || hostOf(endpoint.url);

  return (
    <>
      <EndpointBreadcrumbs current={title} />
      <PageHeader
        title={title}
        description={endpoint.url}
        actions={
          canChange && (
            <>
              <Button leftSection={<IconSend size={16} />} onClick={sendTest} loading={test.isPending}>
                Send test event
              </Button>
              <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button variant="default" rightSection={<IconChevronDown size={16} />}>
                    More
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item leftSection={<IconKey size={16} />} onClick={() => confirmRotation(endpoint)}>
                    Rotate signing secret
                  </Menu.Item>
                  <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => confirmDeletion(endpoint)}>
                    Delete endpoint
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </>
          )
        }
      />
      <RoleNotice needs="admin" subject="event endpoints or send them test events" />
      <Stack gap="lg">
        {rotated && (
          <SigningSecretNotice
            title="New signing secret"
            secret={rotated.secret}
            note="For 24 hours calls also carry a signature made with the previous secret."
            onDismiss={() => setRotated(null)}
          />
        )}
        <EventEndpointStatusAlert endpoint={endpoint} onEnable={canChange ? () => setEnabled(true) : undefined} enabling={update.isPending} />
        <EventEndpointSettings endpoint={endpoint} onEnabledChange={canChange ? setEnabled : undefined} switching={update.isPending} />
        <EventDeliveries endpoint={endpoint} canChange={canChange} />
      </Stack>
      {canChange && <EventEndpointEditModal endpoint={endpoint} opened={editing} onClose={() => setEditing(false)} />}
    </>
  );
}

function EventDeliveries({ endpoint, canChange }: { endpoint: EventEndpoint; canChange: boolean }) {
  const { page, perPage, setPage, setPerPage } = usePageParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const status = parseStatus(searchParams);
  const openDelivery = searchParams.get('delivery');
  const deliveries = useQuery({
    ...eventEndpointQueries.deliveries(endpoint.uuid, { page, per_page: perPage, status }),
    refetchInterval: (query) => (query.state.data?.data.some((delivery) => delivery.status === 'pending') ? PENDING_REFRESH_MS : false),
  });

  const setStatusParam = useSetFilterParam('status');
  const setStatus = (value: string) => setStatusParam(value === ALL ? undefined : value);
  const hrefOf = (delivery: EventDelivery) => {
    const updated = new URLSearchParams(searchParams);
    updated.set('delivery', delivery.uuid);
    return `?${updated.toString()}`;
  };
  const closeDelivery = () =>
    setSearchParams((current) => {
      const updated = new URLSearchParams(current);
      updated.delete('delivery');
      return updated;
    });
  const statusLabel = status && DELIVERY_STATUS_LABELS[status].toLowerCase();

  return (
    <section aria-labelledby="event-endpoint-deliveries">
      <Group justify="space-between" align="flex-end" mb="md" gap="sm">
        <div>
          <Title order={2} size="h4" id="event-endpoint-deliveries">
            Deliveries
          </Title>
          <Text size="sm" c="dimmed">
            One row per call Herald makes, newest first. Delivered ones are kept 7 days, failed ones 30.
          </Text>
        </div>
        <SegmentedControl
          aria-label="Filter by status"
          value={status ?? ALL}
          onChange={setStatus}
          data={[{ value: ALL, label: 'All' }, ...EVENT_DELIVERY_STATUSES.map((value) => ({ value, label: DELIVERY_STATUS_LABELS[value] }))]}
        />
      </Group>
      {deliveries.isPending ? (
        <TableSkeleton columns={EVENT_DELIVERY_COLUMNS} />
      ) : deliveries.isError ? (
        <ErrorState title="The deliveries could not be loaded." error={deliveries.error} onRetry={() => void deliveries.refetch()} />
      ) : deliveries.data.meta.total === 0 ? (
        <EmptyPanel
          icon={<IconHistory />}
          title={statusLabel ? `No ${statusLabel} deliveries` : 'No deliveries yet'}
          description={
            statusLabel
              ? 'Choose All to see every delivery.'
              : canChange
                ? 'Deliveries appear here when one of its events happens. Send a test event to try your endpoint.'
                : 'Deliveries appear here when one of its events happens.'
          }
        />
      ) : (
        <>
          <EventDeliveriesTable deliveries={deliveries.data.data} hrefOf={hrefOf} />
          <PaginationBar
            meta={deliveries.data.meta}
            perPage={perPage}
            onPageChange={setPage}
            onPerPageChange={setPerPage}
            noun={{ one: 'delivery', other: 'deliveries' }}
          />
        </>
      )}
      <EventDeliveryModal endpointUuid={endpoint.uuid} deliveryUuid={openDelivery} onClose={closeDelivery} canRedeliver={canChange} />
    </section>
  );
}
