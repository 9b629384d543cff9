import { Anchor, Badge, Group, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { ContactGroup } from '../../api/gen/types.gen';
import { DataTable, type DataColumn, type RowAction } from '../../components/data-table';
import { formatCount, formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { ContactGroupStatusBadge } from './contact-group-status-badge';

export const CONTACT_GROUP_COLUMNS = ['Name', 'Description', 'Contacts', 'Status', 'Updated', 'Actions'] as const;

interface ContactGroupsTableProps {
  groups: readonly ContactGroup[];
  /** Absent when the role may not change contact groups: the actions column goes. */
  onDelete?: (group: ContactGroup) => void;
}

const COLUMNS: DataColumn<ContactGroup>[] = [
  {
    key: 'name',
    header: 'Name',
    cell: (group) => (
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
    ),
  },
  {
    key: 'description',
    header: 'Description',
    cellProps: { maw: 320 },
    cell: (group) => (
      <Text size="sm" c={group.description ? undefined : 'dimmed'} lineClamp={2}>
        {group.description || 'No description'}
      </Text>
    ),
  },
  { key: 'contacts', header: 'Contacts', align: 'right', cell: (group) => formatCount(group.number_of_contacts) },
  { key: 'status', header: 'Status', cell: (group) => <ContactGroupStatusBadge status={group.status} /> },
  { key: 'updated', header: 'Updated', cell: (group) => formatTimestamp(group.updated_at) },
];

export function ContactGroupsTable({ groups, onDelete }: ContactGroupsTableProps) {
  const actions: RowAction<ContactGroup>[] = onDelete
    ? [{ label: 'Delete', name: (group) => `Delete ${group.name}`, icon: <IconTrash size={18} />, color: 'red', onClick: onDelete }]
    : [];
  return (
    <DataTable
      label="Contact groups"
      columns={COLUMNS}
      rows={groups}
      rowKey={(group) => group.uuid}
      actions={actions}
      actionsInstead={(group) =>
        group.deletable ? undefined : (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Text size="xs" c="dimmed">
              Kept by every team
            </Text>
          </Group>
        )
      }
      minWidth={720}
    />
  );
}
