import { ActionIcon, Badge, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Keyword } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { TableScroll } from '../../components/table-scroll';

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
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={760}>
        <Table aria-label="Keywords">
          <Table.Thead>
            <Table.Tr>
              {KEYWORD_COLUMNS.filter((column) => onDelete || column !== 'Actions').map((column) => (
                <Table.Th key={column} ta={column === 'Actions' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keywords.map((keyword) => (
              <Table.Tr key={keyword.uuid}>
                <Table.Td>
                  <Text size="sm" fw={600} ff="monospace">
                    {keyword.keyword}
                  </Text>
                </Table.Td>
                <Table.Td maw={280}>
                  <Text size="sm" c={keyword.message ? undefined : 'dimmed'} lineClamp={2}>
                    {keyword.message || 'No reply'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Targets enabled={keyword.add_contact_to_group} uuids={keyword.contact_groups_uuid} names={groupNames} />
                </Table.Td>
                <Table.Td>
                  <Targets enabled={keyword.call_webhook} uuids={keyword.webhooks_uuid} names={webhookNames} />
                </Table.Td>
                <Table.Td>{formatTimestamp(keyword.updated_at)}</Table.Td>
                {onDelete && (
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label="Edit">
                        <ActionIcon component={Link} to={paths.keywords.edit.getHref(keyword.uuid)} variant="subtle" aria-label={`Edit ${keyword.keyword}`}>
                          <IconPencil size={18} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Delete">
                        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${keyword.keyword}`} onClick={() => onDelete(keyword)}>
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
