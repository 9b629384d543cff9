import { Text } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { Sender } from '../../api/gen/types.gen';
import { DataTable, type DataColumn, type RowAction } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { SenderStatusBadge } from './sender-status-badge';

export const SENDER_COLUMNS = ['Sender', 'Status', 'Created', 'Updated', 'Actions'] as const;

interface SendersTableProps {
  senders: readonly Sender[];
  /** Absent when the role may not change senders: the actions column goes. */
  onDelete?: (sender: Sender) => void;
}

const COLUMNS: DataColumn<Sender>[] = [
  {
    key: 'sender',
    header: 'Sender',
    cell: (sender) => (
      <Text size="sm" fw={500}>
        {sender.sender}
      </Text>
    ),
  },
  { key: 'status', header: 'Status', cell: (sender) => <SenderStatusBadge status={sender.status} /> },
  { key: 'created', header: 'Created', cell: (sender) => formatTimestamp(sender.created_at) },
  { key: 'updated', header: 'Updated', cell: (sender) => formatTimestamp(sender.updated_at) },
];

export function SendersTable({ senders, onDelete }: SendersTableProps) {
  const actions: RowAction<Sender>[] = onDelete
    ? [
        { label: 'Edit', name: (sender) => `Edit ${sender.sender}`, icon: <IconPencil size={18} />, href: (sender) => paths.senders.edit.getHref(sender.uuid) },
        { label: 'Delete', name: (sender) => `Delete ${sender.sender}`, icon: <IconTrash size={18} />, color: 'red', onClick: onDelete },
      ]
    : [];
  return <DataTable label="Senders" columns={COLUMNS} rows={senders} rowKey={(sender) => sender.uuid} actions={actions} />;
}
