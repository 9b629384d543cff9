import { Alert, Badge, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconPlugConnectedX } from '@tabler/icons-react';
import type { EventEndpoint } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';

type Status = Pick<EventEndpoint, 'enabled' | 'disabled_reason' | 'failing_since'>;

/** Enabled, failing (calls fail, not yet 24 hours), disabled by a person, or disabled by Herald. */
export function EventEndpointStatusBadge({ endpoint }: { endpoint: Status }) {
  if (!endpoint.enabled) {
    return endpoint.disabled_reason ? (
      <Badge color="red" variant="light" tt="none">
        Disabled by Herald
      </Badge>
    ) : (
      <Badge color="gray" variant="light" tt="none">
        Disabled
      </Badge>
    );
  }
  return endpoint.failing_since ? (
    <Badge color="orange" variant="light" tt="none">
      Failing
    </Badge>
  ) : (
    <Badge color="teal" variant="light" tt="none">
      Enabled
    </Badge>
  );
}

interface EventEndpointStatusAlertProps {
  endpoint: Status;
  /** Turns the endpoint back on; absent when the role may not. */
  onEnable?: () => void;
  enabling?: boolean;
}

/** Why the endpoint receives nothing (Herald disabled it), or that its calls are failing; nothing while all is well. */
export function EventEndpointStatusAlert({ endpoint, onEnable, enabling = false }: EventEndpointStatusAlertProps) {
  if (!endpoint.enabled && endpoint.disabled_reason) {
    return (
      <Alert color="red" variant="light" icon={<IconPlugConnectedX />} title="Herald disabled this endpoint">
        <Text size="sm">{endpoint.disabled_reason}</Text>
        <Text size="sm" mt={4}>
          No events are recorded for it while it is disabled. Deliveries still pending are sent once it is enabled again.
        </Text>
        {onEnable && (
          <Group mt="sm">
            <Button size="xs" color="red" variant="white" onClick={onEnable} loading={enabling}>
              Enable again
            </Button>
          </Group>
        )}
      </Alert>
    );
  }
  if (endpoint.enabled && endpoint.failing_since) {
    return (
      <Alert color="orange" variant="light" icon={<IconAlertTriangle />} title="Calls to this endpoint are failing">
        <Text size="sm">
          Every call has failed since {formatTimestamp(endpoint.failing_since)}. Herald keeps retrying, and disables the endpoint once its calls have failed for
          24 hours.
        </Text>
      </Alert>
    );
  }
  return null;
}
