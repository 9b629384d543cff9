import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { ContactDetail } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { isOptOutGroup } from './phone-number';

type Membership = ContactDetail['groups'][number];

function Fields({ groupName, fields }: { groupName: string; fields: Membership['custom_fields'] }) {
  const entries = Object.entries(fields).filter(([, value]) => value !== '');
  if (entries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No custom fields.
      </Text>
    );
  }
  return (
    <Table
      aria-label={`Fields in ${groupName}`}
      variant="vertical"
      withRowBorders={false}
      verticalSpacing={4}
      horizontalSpacing={0}
      highlightOnHover={false}
      layout="fixed"
    >
      <Table.Tbody>
        {entries.map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Th w="40%" bg="transparent" pr="sm" fw={500} c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The groups the number is in, each with the custom fields it has there (a number has its own fields in each group). */
export function ContactMemberships({ groups }: { groups: ContactDetail['groups'] }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      {groups.map((group) => (
        <Paper key={group.uuid} withBorder radius="md" p="md" component="article" aria-label={group.name}>
          <Stack gap="xs">
            <Group justify="space-between" gap="xs" align="baseline">
              <Group gap="xs">
                <Anchor component={Link} to={paths.contactGroups.detail.getHref(group.uuid)} fw={600}>
                  {group.name}
                </Anchor>
                {isOptOutGroup(group) && (
                  <Badge size="xs" variant="outline" color="gray" tt="none">
                    Opt-outs
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                Added {formatTimestamp(group.added_at)}
              </Text>
            </Group>
            <Fields groupName={group.name} fields={group.custom_fields} />
          </Stack>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
