import { ActionIcon, Anchor, Badge, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconLock, IconPencil, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Template, VanityDomain } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { EncodingBadge } from './encoding-badge';
import { draftMessage, sampleShortLinks } from './message-draft';
import { TableScroll } from '../../components/table-scroll';

export const TEMPLATE_COLUMNS = ['Name', 'Sender', 'Encoding', 'Segments', 'Updated', 'Actions'] as const;

interface TemplatesTableProps {
  templates: readonly Template[];
  /** The team's link domains, to count each link at its short-link length. */
  vanityDomains: readonly VanityDomain[];
  /** Absent when the role may not change templates: the actions column goes (the name still opens the template). */
  onDelete?: (template: Template) => void;
}

export function TemplatesTable({ templates, vanityDomains, onDelete }: TemplatesTableProps) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={720}>
        <Table aria-label="Templates">
          <Table.Thead>
            <Table.Tr>
              {TEMPLATE_COLUMNS.filter((column) => onDelete || column !== 'Actions').map((column) => (
                <Table.Th key={column} ta={column === 'Actions' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {templates.map((template) => {
              const { measurement } = draftMessage(template.body, sampleShortLinks(template.links, vanityDomains));
              return (
                <Table.Tr key={template.uuid}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Anchor component={Link} to={paths.templates.edit.getHref(template.uuid)} size="sm" fw={500}>
                        {template.name}
                      </Anchor>
                      {template.is_locked && (
                        <Badge color="gray" variant="light" size="sm" leftSection={<IconLock size={12} />}>
                          Locked
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{template.sender}</Table.Td>
                  <Table.Td>
                    <EncodingBadge encoding={measurement.encoding} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{measurement.segments}</Text>
                  </Table.Td>
                  <Table.Td>{formatTimestamp(template.updated_at)}</Table.Td>
                  {onDelete && (
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Tooltip label="Edit">
                          <ActionIcon component={Link} to={paths.templates.edit.getHref(template.uuid)} variant="subtle" aria-label={`Edit ${template.name}`}>
                            <IconPencil size={18} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Delete">
                          <ActionIcon variant="subtle" color="red" aria-label={`Delete ${template.name}`} onClick={() => onDelete(template)}>
                            <IconTrash size={18} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
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
