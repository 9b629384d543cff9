import { Badge, Button, Group, Select, Text } from '@mantine/core';
import type { Member } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';
import type { Role } from '../../lib/roles';
import { isRole, ROLE_OPTIONS } from './member-roles';
import { RoleBadge } from './role-badge';

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

export const MEMBER_COLUMNS = ['Name', 'E-mail', 'Role', 'Joined', 'Last seen', 'Actions'] as const;

export interface MemberActions {
  onRoleChange: (member: Member, role: Role) => void;
  onRemove: (member: Member) => void;
  /** The role change on its way to the service, shown in its member's Select until it is settled. */
  pendingChange?: { uuid: string; role: Role };
}

interface MembersTableProps {
  members: readonly Member[];
  /** The signed-in user, marked "You" and never offered to remove themselves. */
  currentUserUuid: string | undefined;
  /** Absent when the role may not change members: roles read as badges and the actions column goes. */
  actions?: MemberActions;
}

export function MembersTable({ members, currentUserUuid, actions }: MembersTableProps) {
  const columns: DataColumn<Member>[] = [
    {
      key: 'name',
      header: 'Name',
      cell: (member) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={500}>
            {member.name}
          </Text>
          {member.uuid === currentUserUuid && (
            <Badge color="gray" variant="outline" size="sm" style={{ flexShrink: 0 }}>
              You
            </Badge>
          )}
        </Group>
      ),
    },
    { key: 'email', header: 'E-mail', cell: (member) => member.email },
    {
      key: 'role',
      header: 'Role',
      cell: (member) => {
        if (!actions) return <RoleBadge role={member.role} />;
        const pending = actions.pendingChange?.uuid === member.uuid ? actions.pendingChange : undefined;
        return (
          <Select
            aria-label={`Role of ${member.name}`}
            data={ROLE_OPTIONS}
            value={pending?.role ?? member.role}
            onChange={(value) => isRole(value) && value !== member.role && actions.onRoleChange(member, value)}
            allowDeselect={false}
            disabled={pending !== undefined}
            size="xs"
            w={120}
            comboboxProps={{ withinPortal: true }}
          />
        );
      },
    },
    { key: 'joined', header: 'Joined', cellProps: { style: NO_WRAP }, cell: (member) => formatTimestamp(member.joined_at) },
    { key: 'last_seen', header: 'Last seen', cellProps: { style: NO_WRAP }, cell: (member) => formatTimestamp(member.last_seen_at, 'Never') },
  ];
  if (actions)
    columns.push({
      key: 'actions',
      header: 'Actions',
      align: 'right',
      cell: (member) =>
        member.uuid !== currentUserUuid && (
          <Button size="xs" variant="subtle" color="red" onClick={() => actions.onRemove(member)} aria-label={`Remove ${member.name}`}>
            Remove
          </Button>
        ),
    });
  return <DataTable label="Members" columns={columns} rows={members} rowKey={(member) => member.uuid} minWidth={actions ? 820 : 700} />;
}
