import { Anchor, Text } from '@mantine/core';
import { IconHistory, IconKey, IconPencil, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Webhook } from '../../api/gen/types.gen';
import { DataTable, type DataColumn, type RowAction } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { HeaderNames } from '../../components/header-names';

export const WEBHOOK_COLUMNS = ['Name', 'URL', 'Headers', 'Updated', 'Actions'] as const;

interface WebhooksTableProps {
  webhooks: readonly Webhook[];
  /** Absent when the role may not change webhooks: only the way to each webhook's deliveries is left. */
  actions?: { onEdit: (webhook: Webhook) => void; onRotateSecret: (webhook: Webhook) => void; onDelete: (webhook: Webhook) => void };
}

const COLUMNS: DataColumn<Webhook>[] = [
  {
    key: 'name',
    header: 'Name',
    cell: (webhook) => (
      <Anchor component={Link} to={paths.webhooks.deliveries.getHref(webhook.uuid)} size="sm" fw={500}>
        {webhook.name}
      </Anchor>
    ),
  },
  {
    key: 'url',
    header: 'URL',
    cellProps: { maw: 320 },
    cell: (webhook) => (
      <Text size="sm" truncate="end" title={webhook.url}>
        {webhook.url}
      </Text>
    ),
  },
  { key: 'headers', header: 'Headers', cell: (webhook) => <HeaderNames headers={webhook.headers} /> },
  { key: 'updated', header: 'Updated', cell: (webhook) => formatTimestamp(webhook.updated_at) },
];

export function WebhooksTable({ webhooks, actions }: WebhooksTableProps) {
  const rowActions: RowAction<Webhook>[] = [
    {
      label: 'Deliveries',
      name: (webhook) => `Deliveries of ${webhook.name}`,
      icon: <IconHistory size={18} />,
      href: (webhook) => paths.webhooks.deliveries.getHref(webhook.uuid),
    },
    ...(actions
      ? ([
          { label: 'Edit', name: (webhook) => `Edit ${webhook.name}`, icon: <IconPencil size={18} />, onClick: actions.onEdit },
          {
            label: 'Rotate secret',
            name: (webhook) => `Rotate the secret of ${webhook.name}`,
            icon: <IconKey size={18} />,
            color: 'orange',
            onClick: actions.onRotateSecret,
          },
          { label: 'Delete', name: (webhook) => `Delete ${webhook.name}`, icon: <IconTrash size={18} />, color: 'red', onClick: actions.onDelete },
        ] satisfies RowAction<Webhook>[])
      : []),
  ];
  return <DataTable label="Webhooks" columns={COLUMNS} rows={webhooks} rowKey={(webhook) => webhook.uuid} actions={rowActions} minWidth={720} />;
}
