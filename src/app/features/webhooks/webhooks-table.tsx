import { ActionIcon, Anchor, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconHistory, IconKey, IconPencil, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Webhook } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { HeaderNames } from '../../components/header-names';
import { TableScroll } from '../../components/table-scroll';

export const WEBHOOK_COLUMNS = ['Name', 'URL', 'Headers', 'Updated', 'Actions'] as const;

interface WebhooksTableProps {
  webhooks: readonly Webhook[];
  /** Absent when the role may not change webhooks: only the way to each webhook's deliveries is left. */
  actions?: { onEdit: (webhook: Webhook) => void; onRotateSecret: (webhook: Webhook) => void; onDelete: (webhook: Webhook) => void };
}

export function WebhooksTable({ webhooks, actions }: WebhooksTableProps) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={720}>
        <Table aria-label="Webhooks">
          <Table.Thead>
            <Table.Tr>
              {WEBHOOK_COLUMNS.map((column) => (
                <Table.Th key={column} ta={column === 'Actions' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {webhooks.map((webhook) => (
              <Table.Tr key={webhook.uuid}>
                <Table.Td>
                  <Anchor component={Link} to={paths.webhooks.deliveries.getHref(webhook.uuid)} size="sm" fw={500}>
                    {webhook.name}
                  </Anchor>
                </Table.Td>
                <Table.Td maw={320}>
                  <Text size="sm" truncate="end" title={webhook.url}>
                    {webhook.url}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <HeaderNames headers={webhook.headers} />
                </Table.Td>
                <Table.Td>{formatTimestamp(webhook.updated_at)}</Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Tooltip label="Deliveries">
                      <ActionIcon
                        component={Link}
                        to={paths.webhooks.deliveries.getHref(webhook.uuid)}
                        variant="subtle"
                        aria-label={`Deliveries of ${webhook.name}`}
                      >
                        <IconHistory size={18} />
                      </ActionIcon>
                    </Tooltip>
                    {actions && (
                      <>
                        <Tooltip label="Edit">
                          <ActionIcon variant="subtle" aria-label={`Edit ${webhook.name}`} onClick={() => actions.onEdit(webhook)}>
                            <IconPencil size={18} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Rotate secret">
                          <ActionIcon
                            variant="subtle"
                            color="orange"
                            aria-label={`Rotate the secret of ${webhook.name}`}
                            onClick={() => actions.onRotateSecret(webhook)}
                          >
                            <IconKey size={18} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Delete">
                          <ActionIcon variant="subtle" color="red" aria-label={`Delete ${webhook.name}`} onClick={() => actions.onDelete(webhook)}>
                            <IconTrash size={18} />
                          </ActionIcon>
                        </Tooltip>
                      </>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}
