import { ActionIcon, Anchor, Code, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { Link, VanityDomain } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { TableScroll } from '../../components/table-scroll';

export const LINK_COLUMNS = ['Shorthand', 'Destination', 'Domain', 'Updated', 'Actions'] as const;

interface LinksTableProps {
  links: readonly Link[];
  vanityDomains: readonly VanityDomain[];
  /** The template is locked: the actions are there but disabled until it can change again. */
  readOnly?: boolean;
  /** Absent when the role may not change links: the actions column goes. */
  actions?: { onEdit: (link: Link) => void; onDelete: (link: Link) => void };
}

export function LinksTable({ links, vanityDomains, readOnly, actions }: LinksTableProps) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={640}>
        <Table aria-label="Links">
          <Table.Thead>
            <Table.Tr>
              {LINK_COLUMNS.filter((column) => actions || column !== 'Actions').map((column) => (
                <Table.Th key={column} ta={column === 'Actions' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {links.map((link) => (
              <Table.Tr key={link.uuid}>
                <Table.Td>
                  <Code fw={600}>::{link.name}::</Code>
                </Table.Td>
                <Table.Td maw={280}>
                  <Anchor href={link.destination} target="_blank" rel="noreferrer noopener" size="sm" truncate="end" display="block">
                    {link.destination}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{vanityDomains.find((domain) => domain.uuid === link.vanity_domain_uuid)?.url_base ?? '—'}</Text>
                </Table.Td>
                <Table.Td>{formatTimestamp(link.updated_at)}</Table.Td>
                {actions && (
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label="Edit">
                        <ActionIcon variant="subtle" aria-label={`Edit link ${link.name}`} onClick={() => actions.onEdit(link)} disabled={readOnly}>
                          <IconPencil size={18} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Delete">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Delete link ${link.name}`}
                          onClick={() => actions.onDelete(link)}
                          disabled={readOnly}
                        >
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
