import { Badge, Group, Paper, SimpleGrid, Text } from '@mantine/core';
import type { ContactGroup } from '../../api/gen/types.gen';
import { ContactGroupStatusBadge } from '../../features/contact-groups/contact-group-status-badge';
import { formatCount, formatTimestamp } from '../../lib/format';
import { Fact } from '../../components/fact';

/** The group's counts and state, above its contacts. */
export function ContactGroupSummary({ group }: { group: ContactGroup }) {
  return (
    <Paper withBorder radius="md" p="md" mb="lg" component="section" aria-label="Group summary">
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Fact label="Contacts">
          <Text size="xl" fw={700}>
            {formatCount(group.number_of_contacts)}
          </Text>
        </Fact>
        <Fact label="Status">
          <Group>
            <ContactGroupStatusBadge status={group.status} />
          </Group>
        </Fact>
        <Fact label="Custom fields">
          {group.headers.length === 0 ? (
            <Text size="sm" c="dimmed">
              None
            </Text>
          ) : (
            <Group gap={4}>
              {group.headers.map((header) => (
                <Badge key={header} variant="default" tt="none">
                  {header}
                </Badge>
              ))}
            </Group>
          )}
        </Fact>
        <Fact label="Updated">
          <Text size="sm">{formatTimestamp(group.updated_at)}</Text>
        </Fact>
      </SimpleGrid>
    </Paper>
  );
}
