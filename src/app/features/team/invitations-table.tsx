import { Button, Paper, Table } from '@mantine/core';
import type { Invitation } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { RoleBadge } from './role-badge';
import { TableScroll } from '../../components/table-scroll';

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

export const INVITATION_COLUMNS = ['E-mail', 'Role', 'Invited by', 'Sent', 'Expires', 'Actions'] as const;

interface InvitationsTableProps {
  invitations: readonly Invitation[];
  onWithdraw: (invitation: Invitation) => void;
}

export function InvitationsTable({ invitations, onWithdraw }: InvitationsTableProps) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={760}>
        <Table aria-label="Pending invitations">
          <Table.Thead>
            <Table.Tr>
              {INVITATION_COLUMNS.map((column) => (
                <Table.Th key={column} ta={column === 'Actions' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invitations.map((invitation) => (
              <Table.Tr key={invitation.uuid}>
                <Table.Td fw={500}>{invitation.email}</Table.Td>
                <Table.Td>
                  <RoleBadge role={invitation.role} />
                </Table.Td>
                <Table.Td>{invitation.invited_by || '—'}</Table.Td>
                <Table.Td style={NO_WRAP}>{formatTimestamp(invitation.created_at)}</Table.Td>
                <Table.Td style={NO_WRAP}>{formatTimestamp(invitation.expires_at)}</Table.Td>
                <Table.Td ta="right">
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => onWithdraw(invitation)}
                    aria-label={`Withdraw the invitation to ${invitation.email}`}
                  >
                    Withdraw
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}
