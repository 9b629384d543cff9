import { Anchor, Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { DirectoryContact } from '../../api/gen/types.gen';
import { paths } from '../../paths';
import { OptedOutBadge } from './opt-out-badge';
import { formatPhoneNumber } from '../../lib/phone-number';
import { isOptOutGroup } from './phone-number';
import { TableScroll } from '../../components/table-scroll';

export const DIRECTORY_COLUMNS = ['Phone number', 'Groups', 'Opted out'] as const;

/**
 * The numbers found, with their groups and whether they are opted out. On a phone the opt-out
 * column goes and its badge sits under the number, so two columns fit the screen without scrolling.
 */
export function ContactsDirectoryTable({ contacts }: { contacts: readonly DirectoryContact[] }) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={320}>
        <Table aria-label="Contacts" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={{ base: 150, sm: 200 }}>Phone number</Table.Th>
              <Table.Th>Groups</Table.Th>
              <Table.Th w={150} visibleFrom="sm">
                Opted out
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {contacts.map((contact) => {
              const optedOut = contact.groups.some(isOptOutGroup);
              const groups = contact.groups.filter((group) => !isOptOutGroup(group));
              return (
                <Table.Tr key={contact.phone_number} style={{ verticalAlign: 'top' }}>
                  <Table.Td>
                    <Stack gap={6} align="flex-start">
                      <Anchor component={Link} to={paths.contacts.detail.getHref(contact.phone_number)} size="sm" fw={500} ff="monospace">
                        {formatPhoneNumber(contact.phone_number)}
                      </Anchor>
                      {optedOut && (
                        <Group hiddenFrom="sm">
                          <OptedOutBadge />
                        </Group>
                      )}
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    {groups.length === 0 ? (
                      <Text size="sm" c="dimmed">
                        {optedOut ? 'Only in default_optouts' : 'None'}
                      </Text>
                    ) : (
                      <Group gap={6}>
                        {groups.map((group) => (
                          <Badge
                            key={group.uuid}
                            component={Link}
                            to={paths.contactGroups.detail.getHref(group.uuid)}
                            variant="light"
                            color="gray"
                            tt="none"
                            maw="100%"
                            style={{ cursor: 'pointer' }}
                          >
                            {group.name}
                          </Badge>
                        ))}
                      </Group>
                    )}
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    {optedOut ? (
                      <OptedOutBadge />
                    ) : (
                      <Text size="sm" c="dimmed">
                        No
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}
