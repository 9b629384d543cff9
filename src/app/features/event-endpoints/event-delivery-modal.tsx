import { Alert, Button, Code, Group, Modal, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { EventDeliveryDetail } from '../../api/gen/types.gen';
import { CallAttemptsTable } from '../../components/call-attempts-table';
import { ErrorState } from '../../components/error-state';
import { formatTimestamp } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { EventDeliveryStatusBadge } from './event-delivery-status-badge';
import { useRedeliverEvent } from './event-endpoint-mutations';
import { eventEndpointQueries } from './event-endpoint-queries';
import { Fact } from '../../components/fact';

/** While a delivery is on its way, how often its page asks again. */
const PENDING_REFRESH_MS = 3_000;

interface EventDeliveryModalProps {
  endpointUuid: string;
  /** The delivery shown; null when the modal is closed. */
  deliveryUuid: string | null;
  onClose: () => void;
  /** Whether the role may send it again. */
  canRedeliver: boolean;
}

/** One delivery: how it went, the JSON body it POSTs, every attempt, and a way to send it again. */
export function EventDeliveryModal({ endpointUuid, deliveryUuid, onClose, canRedeliver }: EventDeliveryModalProps) {
  const delivery = useQuery({
    ...eventEndpointQueries.delivery(endpointUuid, deliveryUuid ?? ''),
    enabled: deliveryUuid !== null,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PENDING_REFRESH_MS : false),
  });
  const redelivery = useRedeliverEvent(endpointUuid);

  const redeliver = (uuid: string) =>
    redelivery.mutate(uuid, {
      onSuccess: () => {
        notifySuccess('The delivery is on its way again.');
        void delivery.refetch();
      },
      onError: (error) => notifyFailure('The delivery could not be sent again', error),
    });

  return (
    <Modal opened={deliveryUuid !== null} onClose={onClose} title={delivery.data ? `Delivery of ${delivery.data.type}` : 'Delivery'} size="xl">
      {delivery.isPending ? (
        <Stack aria-busy="true" aria-label="Loading">
          <Skeleton height={60} radius="md" />
          <Skeleton height={160} radius="md" />
        </Stack>
      ) : delivery.isError ? (
        <ErrorState title="The delivery could not be loaded." error={delivery.error} onRetry={() => void delivery.refetch()} />
      ) : (
        <DeliveryDetail
          delivery={delivery.data}
          action={
            canRedeliver && (
              <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={() => redeliver(delivery.data.uuid)} loading={redelivery.isPending}>
                Redeliver
              </Button>
            )
          }
        />
      )}
    </Modal>
  );
}

function DeliveryDetail({ delivery, action }: { delivery: EventDeliveryDetail; action: ReactNode }) {
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        <Fact label="Status">
          <EventDeliveryStatusBadge status={delivery.status} />
        </Fact>
        <Fact label="Attempts">
          <Text size="sm">{delivery.attempts}</Text>
        </Fact>
        <Fact label="Created">
          <Text size="sm">{formatTimestamp(delivery.created_at)}</Text>
        </Fact>
        {delivery.status === 'pending' ? (
          <Fact label="Next try">
            <Text size="sm">{formatTimestamp(delivery.next_attempt_at, 'Soon')}</Text>
          </Fact>
        ) : (
          <Fact label="Finished">
            <Text size="sm">{formatTimestamp(delivery.finished_at)}</Text>
          </Fact>
        )}
      </SimpleGrid>
      <Fact label="Webhook ID">
        <Code fz="sm" style={{ overflowWrap: 'anywhere' }}>
          {delivery.uuid}
        </Code>
        <Text size="xs" c="dimmed" mt={4}>
          The same on every attempt, so your endpoint can drop a call it already has.
        </Text>
      </Fact>
      {delivery.status === 'pending' && (
        <Alert color="blue" variant="light">
          Herald is still trying: it retries with longer and longer waits for 24 hours, while the endpoint is enabled.
        </Alert>
      )}
      {action && (
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed" style={{ flex: '1 1 16rem' }}>
            Redeliver sends the same body with the same webhook ID now, then retries for 24 hours if it fails (while the endpoint is enabled).
          </Text>
          {action}
        </Group>
      )}
      <div>
        <Title order={3} size="h5" id="event-delivery-payload" mb="xs">
          Payload
        </Title>
        <Code block role="region" aria-labelledby="event-delivery-payload" tabIndex={0} mah={320} style={{ overflow: 'auto' }}>
          {JSON.stringify(delivery.payload, null, 2)}
        </Code>
      </div>
      <section aria-labelledby="event-delivery-attempts">
        <Title order={3} size="h5" id="event-delivery-attempts" mb="xs">
          Attempts
        </Title>
        {delivery.attempt_log.length === 0 ? (
          <Text size="sm" c="dimmed">
            No attempt yet.
          </Text>
        ) : (
          <CallAttemptsTable label="Attempts" attempts={delivery.attempt_log} />
        )}
      </section>
    </Stack>
  );
}
