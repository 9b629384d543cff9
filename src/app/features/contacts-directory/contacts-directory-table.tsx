import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { DirectoryContact } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { paths } from '../../paths';
import { OptedOutBadge } from './opt-out-badge';
import { formatPhoneNumber } from '../../lib/phone-number';
import { isOptOutGroup } from './phone-number';

export const DIRECTORY_COLUMNS = ['Phone number', 'Groups', 'Opted out'] as const;

const optedOutOf = (contact: DirectoryContact) => contact.groups.some(isOptOutGroup);

const COLUMNS: DataColumn<DirectoryContact>[] = [
  {
    key: 'phone_number',
    header: 'Phone number',
    width: { base: 150, sm: 200 },
    cell: (contact) => (
      <Stack gap={6} align="flex-start">
        <Anchor component={Link} to={paths.contacts.detail.getHref(contact.phone_number)} size="sm" fw={500} ff="monospace">
          {formatPhoneNumber(contact.phone_number)}
        </Anchor>
        {optedOutOf(contact) && (
          <Group hiddenFrom="sm">
            <OptedOutBadge />
          </Group>
        )}
      </Stack>
    ),
  },
  {
    key: 'groups',
    header: 'Groups',
    cell: (contact) => {
      const groups = contact.groups.filter((group) => !isOptOutGroup(group));
      return groups.length === 0 ? (
        <Text size="sm" c="dimmed">
          {optedOutOf(contact) ? 'Only in default_optouts' : 'None'}
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
      );
    },
  },
  {
    key: 'opted_out',
    header: 'Opted out',
    width: 150,
    headerProps: { visibleFrom: 'sm' },
    cellProps: { visibleFrom: 'sm' },
    cell: (contact) =>
      optedOutOf(contact) ? (
        <OptedOutBadge />
      ) : (
        <Text size="sm" c="dimmed">
          No
        </Text>
      ),
  },
];

/**
 * The numbers found, with their groups and whether they are opted out. On a phone the opt-out
 * column goes and its badge sits under the number, so two columns fit the screen without scrolling.
 */
export function ContactsDirectoryTable({ contacts }: { contacts: readonly DirectoryContact[] }) {
  return (
    <DataTable
      label="Contacts"
      columns={COLUMNS}
      rows={contacts}
      rowKey={(contact) => contact.phone_number}
      rowProps={() => ({ style: { verticalAlign: 'top' } })}
      tableProps={{ layout: 'fixed' }}
      minWidth={320}
    />
  );
}
