import { Button } from '@mantine/core';
import type { Invitation } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';
import { RoleBadge } from './role-badge';

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

export const INVITATION_COLUMNS = ['E-mail', 'Role', 'Invited by', 'Sent', 'Expires', 'Actions'] as const;

interface InvitationsTableProps {
  invitations: readonly Invitation[];
  onWithdraw: (invitation: Invitation) => void;
}

export function InvitationsTable({ invitations, onWithdraw }: InvitationsTableProps) {
  const columns: DataColumn<Invitation>[] = [
    { key: 'email', header: 'E-mail', cellProps: { fw: 500 }, cell: (invitation) => invitation.email },
    { key: 'role', header: 'Role', cell: (invitation) => <RoleBadge role={invitation.role} /> },
    { key: 'invited_by', header: 'Invited by', cell: (invitation) => invitation.invited_by || '—' },
    { key: 'sent', header: 'Sent', cellProps: { style: NO_WRAP }, cell: (invitation) => formatTimestamp(invitation.created_at) },
    { key: 'expires', header: 'Expires', cellProps: { style: NO_WRAP }, cell: (invitation) => formatTimestamp(invitation.expires_at) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      cell: (invitation) => (
        <Button size="xs" variant="subtle" color="red" onClick={() => onWithdraw(invitation)} aria-label={`Withdraw the invitation to ${invitation.email}`}>
          Withdraw
        </Button>
      ),
    },
  ];
  return <DataTable label="Pending invitations" columns={columns} rows={invitations} rowKey={(invitation) => invitation.uuid} minWidth={760} />;
}
