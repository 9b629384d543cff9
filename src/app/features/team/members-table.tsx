import { Badge, Button, Group, Paper, Select, Table, Text } from '@mantine/core';
import type { Member } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import type { Role } from '../../lib/roles';
import { isRole, ROLE_OPTIONS } from './member-roles';
import { RoleBadge } from './role-badge';
import { TableScroll } from '../../components/table-scroll';

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
  const columns = MEMBER_COLUMNS.filter((column) => actions || column !== 'Actions');
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={actions ? 820 : 700}>
        <Table aria-label="Members">
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column} ta={column === 'Actions' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((member) => {
              const isYou = member.uuid === currentUserUuid;
              const pending = actions?.pendingChange?.uuid === member.uuid ? actions.pendingChange : undefined;
              return (
                <Table.Tr key={member.uuid}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" fw={500}>
                        {member.name}
                      </Text>
                      {isYou && (
                        <Badge color="gray" variant="outline" size="sm" style={{ flexShrink: 0 }}>
                          You
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{member.email}</Table.Td>
                  <Table.Td>
                    {actions ? (
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
                    ) : (
                      <RoleBadge role={member.role} />
                    )}
                  </Table.Td>
                  <Table.Td style={NO_WRAP}>{formatTimestamp(member.joined_at)}</Table.Td>
                  <Table.Td style={NO_WRAP}>{formatTimestamp(member.last_seen_at, 'Never')}</Table.Td>
                  {actions && (
                    <Table.Td ta="right">
                      {!isYou && (
                        <Button size="xs" variant="subtle" color="red" onClick={() => actions.onRemove(member)} aria-label={`Remove ${member.name}`}>
                          Remove
                        </Button>
                      )}
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
