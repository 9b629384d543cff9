import { ActionIcon, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Sender } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { SenderStatusBadge } from './sender-status-badge';
import { TableScroll } from '../../components/table-scroll';

export const SENDER_COLUMNS = ['Sender', 'Status', 'Created', 'Updated', 'Actions'] as const;

interface SendersTableProps {
  senders: readonly Sender[];
  /** Absent when the role may not change senders: the actions column goes. */
  onDelete?: (sender: Sender) => void;
}

export function SendersTable({ senders, onDelete }: SendersTableProps) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={560}>
        <Table aria-label="Senders">
          <Table.Thead>
            <Table.Tr>
              {SENDER_COLUMNS.filter((column) => onDelete || column !== 'Actions').map((column) => (
                <Table.Th key={column} ta={column === 'Actions' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {senders.map((sender) => (
              <Table.Tr key={sender.uuid}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {sender.sender}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <SenderStatusBadge status={sender.status} />
                </Table.Td>
                <Table.Td>{formatTimestamp(sender.created_at)}</Table.Td>
                <Table.Td>{formatTimestamp(sender.updated_at)}</Table.Td>
                {onDelete && (
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label="Edit">
                        <ActionIcon component={Link} to={paths.senders.edit.getHref(sender.uuid)} variant="subtle" aria-label={`Edit ${sender.sender}`}>
                          <IconPencil size={18} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Delete">
                        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${sender.sender}`} onClick={() => onDelete(sender)}>
                          <IconTrash size={18} />
                        </ActionIcon>
                      </Tooltip>
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
