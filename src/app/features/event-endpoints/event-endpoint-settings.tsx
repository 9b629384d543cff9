import { Badge, Group, Paper, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import type { EventEndpoint } from '../../api/gen/types.gen';
import { HeaderNames } from '../../components/header-names';
import { formatTimestamp } from '../../lib/format';
import { EventEndpointStatusBadge } from './event-endpoint-status';
import { EVENT_TYPE_GROUPS } from './event-types';
import { Fact } from '../../components/fact';

interface EventEndpointSettingsProps {
  endpoint: EventEndpoint;
  /** Switches the endpoint on or off; absent when the role may not (its state is then only shown). */
  onEnabledChange?: (enabled: boolean) => void;
  switching?: boolean;
}

/** What the endpoint receives and how it is called, as everyone may read it; an admin switches it on and off here. */
export function EventEndpointSettings({ endpoint, onEnabledChange, switching = false }: EventEndpointSettingsProps) {
  const chosenGroups = EVENT_TYPE_GROUPS.map((group) => ({
    label: group.label,
    types: group.types.filter(({ type }) => endpoint.events.includes(type)),
  })).filter((group) => group.types.length > 0);

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="event-endpoint-settings">
      <Group justify="space-between" align="flex-start" mb="md" gap="sm">
        <div>
          <Title order={2} size="h4" id="event-endpoint-settings">
            Settings
          </Title>
          <Text size="sm" c="dimmed">
            While the endpoint is disabled, Herald records no events for it.
          </Text>
        </div>
        {onEnabledChange ? (
          <Switch
            label="Enabled"
            checked={endpoint.enabled}
            // Not disabled while saving: that would take the keyboard's focus away from it.
            aria-busy={switching}
            onChange={(event) => {
              if (!switching) onEnabledChange(event.currentTarget.checked);
            }}
            labelPosition="left"
          />
        ) : (
          <EventEndpointStatusBadge endpoint={endpoint} />
        )}
      </Group>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          <Fact label="URL">
            <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {endpoint.url}
            </Text>
          </Fact>
          <Fact label="Description">
            <Text size="sm" c={endpoint.description ? undefined : 'dimmed'}>
              {endpoint.description || 'None'}
            </Text>
          </Fact>
          <Fact label="Headers">
            <HeaderNames headers={endpoint.headers} />
          </Fact>
          <Fact label="Created">
            <Text size="sm">{formatTimestamp(endpoint.created_at)}</Text>
          </Fact>
          <Fact label="Updated">
            <Text size="sm">{formatTimestamp(endpoint.updated_at)}</Text>
          </Fact>
        </SimpleGrid>
        <Fact label={`Events (${endpoint.events.length})`}>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            {chosenGroups.map((group) => (
              <div key={group.label}>
                <Text size="sm" fw={500}>
                  {group.label}
                </Text>
                <Group gap={4} mt={4}>
                  {group.types.map(({ type, explanation }) => (
                    <Badge key={type} variant="default" size="sm" tt="none" ff="monospace" title={explanation}>
                      {type}
                    </Badge>
                  ))}
                </Group>
              </div>
            ))}
          </SimpleGrid>
        </Fact>
      </Stack>
    </Paper>
  );
}
