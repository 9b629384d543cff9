import { Badge, Group, Text } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { Keyword } from '../../api/gen/types.gen';
import { DataTable, type DataColumn, type RowAction } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';

export const KEYWORD_COLUMNS = ['Keyword', 'Reply', 'Adds to groups', 'Calls webhooks', 'Updated', 'Actions'] as const;

interface KeywordsTableProps {
  keywords: readonly Keyword[];
  /** Names by uuid, to show targets by name. */
  groupNames: ReadonlyMap<string, string>;
  webhookNames: ReadonlyMap<string, string>;
  /** Absent when the role may not change keywords: the actions column goes. */
  onDelete?: (keyword: Keyword) => void;
}

function Targets({ enabled, uuids, names }: { enabled: boolean; uuids: readonly string[]; names: ReadonlyMap<string, string> }) {
  if (!enabled || uuids.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No
      </Text>
    );
  }
  return (
    <Group gap={4}>
      {uuids.map((uuid) => (
        <Badge key={uuid} variant="light" size="sm" tt="none">
          {names.get(uuid) ?? 'Unknown'}
        </Badge>
      ))}
    </Group>
  );
}

export function KeywordsTable({ keywords, groupNames, webhookNames, onDelete }: KeywordsTableProps) {
  const columns: DataColumn<Keyword>[] = [
    {
      key: 'keyword',
      header: 'Keyword',
      cell: (keyword) => (
        <Text size="sm" fw={600} ff="monospace">
          {keyword.keyword}
        </Text>
      ),
    },
    {
      key: 'reply',
      header: 'Reply',
      cellProps: { maw: 280 },
      cell: (keyword) => (
        <Text size="sm" c={keyword.message ? undefined : 'dimmed'} lineClamp={2}>
          {keyword.message || 'No reply'}
        </Text>
      ),
    },
    {
      key: 'groups',
      header: 'Adds to groups',
      cell: (keyword) => <Targets enabled={keyword.add_contact_to_group} uuids={keyword.contact_groups_uuid} names={groupNames} />,
    },
    {
      key: 'webhooks',
      header: 'Calls webhooks',
      cell: (keyword) => <Targets enabled={keyword.call_webhook} uuids={keyword.webhooks_uuid} names={webhookNames} />,
    },
    { key: 'updated', header: 'Updated', cell: (keyword) => formatTimestamp(keyword.updated_at) },
  ];
  const actions: RowAction<Keyword>[] = onDelete
    ? [
        {
          label: 'Edit',
          name: (keyword) => `Edit ${keyword.keyword}`,
          icon: <IconPencil size={18} />,
          href: (keyword) => paths.keywords.edit.getHref(keyword.uuid),
        },
        { label: 'Delete', name: (keyword) => `Delete ${keyword.keyword}`, icon: <IconTrash size={18} />, color: 'red', onClick: onDelete },
      ]
    : [];
  return <DataTable label="Keywords" columns={columns} rows={keywords} rowKey={(keyword) => keyword.uuid} actions={actions} minWidth={760} />;
}
