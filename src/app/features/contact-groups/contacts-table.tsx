import { ActionIcon, Anchor, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconUserMinus } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Contact } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { formatPhoneNumber } from '../../lib/phone-number';
import { TableScroll } from '../../components/table-scroll';

/** The columns for a group: the number, one per custom field, then dates and actions. */
export function contactColumns(headers: readonly string[], withActions = true): string[] {
  return ['Phone number', ...headers, 'Added', ...(withActions ? ['Actions'] : [])];
}

interface ContactsTableProps {
  headers: readonly string[];
  contacts: readonly Contact[];
  /** Absent when the role may not change contacts: the actions column goes. */
  onRemove?: (contact: Contact) => void;
}

export function ContactsTable({ headers, contacts, onRemove }: ContactsTableProps) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={480 + headers.length * 140}>
        <Table aria-label="Contacts">
          <Table.Thead>
            <Table.Tr>
              {contactColumns(headers, Boolean(onRemove)).map((column) => (
                <Table.Th key={column} ta={column === 'Actions' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {contacts.map((contact) => {
              const number = formatPhoneNumber(contact.phone_number);
              return (
                <Table.Tr key={contact.phone_number}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.contacts.detail.getHref(contact.phone_number)} size="sm" fw={500} ff="monospace">
                      {number}
                    </Anchor>
                  </Table.Td>
                  {headers.map((header) => (
                    <Table.Td key={header}>
                      {contact.custom_fields[header] ? (
                        contact.custom_fields[header]
                      ) : (
                        <Text span size="sm" c="dimmed">
                          —
                        </Text>
                      )}
                    </Table.Td>
                  ))}
                  <Table.Td>{formatTimestamp(contact.created_at)}</Table.Td>
                  {onRemove && (
                    <Table.Td>
                      <Group justify="flex-end">
                        <Tooltip label="Remove from group">
                          <ActionIcon variant="subtle" color="red" aria-label={`Remove ${number}`} onClick={() => onRemove(contact)}>
                            <IconUserMinus size={18} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}
