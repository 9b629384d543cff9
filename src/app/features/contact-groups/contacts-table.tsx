import { Anchor, Text } from '@mantine/core';
import { IconUserMinus } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Contact } from '../../api/gen/types.gen';
import { DataTable, type DataColumn, type RowAction } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { formatPhoneNumber } from '../../lib/phone-number';

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
  const columns: DataColumn<Contact>[] = [
    {
      key: 'Phone number',
      header: 'Phone number',
      cell: (contact) => (
        <Anchor component={Link} to={paths.contacts.detail.getHref(contact.phone_number)} size="sm" fw={500} ff="monospace">
          {formatPhoneNumber(contact.phone_number)}
        </Anchor>
      ),
    },
    ...headers.map((header): DataColumn<Contact> => ({
      key: `field:${header}`,
      header,
      cell: (contact) =>
        contact.custom_fields[header] ? (
          contact.custom_fields[header]
        ) : (
          <Text span size="sm" c="dimmed">
            —
          </Text>
        ),
    })),
    { key: 'Added', header: 'Added', cell: (contact) => formatTimestamp(contact.created_at) },
  ];
  const actions: RowAction<Contact>[] = onRemove
    ? [
        {
          label: 'Remove from group',
          name: (contact) => `Remove ${formatPhoneNumber(contact.phone_number)}`,
          icon: <IconUserMinus size={18} />,
          color: 'red',
          onClick: onRemove,
        },
      ]
    : [];
  return (
    <DataTable
      label="Contacts"
      columns={columns}
      rows={contacts}
      rowKey={(contact) => contact.phone_number}
      actions={actions}
      minWidth={480 + headers.length * 140}
    />
  );
}
