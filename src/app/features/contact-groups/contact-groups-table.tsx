import { ActionIcon, Anchor, Badge, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ContactGroup } from '../../api/gen/types.gen';
import { formatCount, formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { ContactGroupStatusBadge } from './contact-group-status-badge';
import { TableScroll } from '../../components/table-scroll';

export const CONTACT_GROUP_COLUMNS = ['Name', 'Description', 'Contacts', 'Status', 'Updated', 'Actions'] as const;

interface ContactGroupsTableProps {
  groups: readonly ContactGroup[];
  /** Absent when the role may not change contact groups: the actions column goes. */
  onDelete?: (group: ContactGroup) => void;
}

export function ContactGroupsTable({ groups, onDelete }: ContactGroupsTableProps) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={720}>
        <Table aria-label="Contact groups">
          <Table.Thead>
            <Table.Tr>
              {CONTACT_GROUP_COLUMNS.filter((column) => onDelete || column !== 'Actions').map((column) => (
                <Table.Th key={column} ta={column === 'Actions' ? 'right' : column === 'Contacts' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.map((group) => (
              <Table.Tr key={group.uuid}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Anchor component={Link} to={paths.contactGroups.detail.getHref(group.uuid)} size="sm" fw={500}>
                      {group.name}
                    </Anchor>
                    {!group.deletable && (
                      <Badge size="xs" variant="outline" color="gray" tt="none">
                        Opt-outs
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td maw={320}>
                  <Text size="sm" c={group.description ? undefined : 'dimmed'} lineClamp={2}>
                    {group.description || 'No description'}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{formatCount(group.number_of_contacts)}</Table.Td>
                <Table.Td>
                  <ContactGroupStatusBadge status={group.status} />
                </Table.Td>
                <Table.Td>{formatTimestamp(group.updated_at)}</Table.Td>
                {onDelete && (
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      {group.deletable ? (
                        <Tooltip label="Delete">
                          <ActionIcon variant="subtle" color="red" aria-label={`Delete ${group.name}`} onClick={() => onDelete(group)}>
                            <IconTrash size={18} />
                          </ActionIcon>
                        </Tooltip>
                      ) : (
                        <Text size="xs" c="dimmed">
                          Kept by every team
                        </Text>
                      )}
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}
