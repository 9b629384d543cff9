import { ActionIcon, Badge, Code, Group, Paper, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { VanityDomain } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { TableScroll } from '../../components/table-scroll';

export const VANITY_DOMAIN_COLUMNS = ['Domain', 'Short links start with', 'Created', 'Actions'] as const;

interface VanityDomainsTableProps {
  domains: readonly VanityDomain[];
  /** Both absent when the role may not change vanity domains: the actions column goes. */
  actions?: { onEdit: (domain: VanityDomain) => void; onDelete: (domain: VanityDomain) => void };
}

export function VanityDomainsTable({ domains, actions }: VanityDomainsTableProps) {
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={640}>
        <Table aria-label="Vanity domains">
          <Table.Thead>
            <Table.Tr>
              {VANITY_DOMAIN_COLUMNS.filter((column) => actions || column !== 'Actions').map((column) => (
                <Table.Th key={column} ta={column === 'Actions' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {domains.map((domain) => (
              <Table.Tr key={domain.uuid}>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Text size="sm" fw={500}>
                      {domain.domain}
                    </Text>
                    {domain.is_default && (
                      <Badge variant="light" color="indigo" size="sm">
                        Herald&apos;s own domain
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Code>{domain.url_base}/…</Code>
                </Table.Td>
                <Table.Td>{formatTimestamp(domain.created_at)}</Table.Td>
                {actions && (
                  <Table.Td>
                    {domain.is_default ? (
                      <Text size="xs" c="dimmed" ta="right">
                        Built in, cannot be changed
                      </Text>
                    ) : (
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Tooltip label="Edit">
                          <ActionIcon variant="subtle" aria-label={`Edit ${domain.domain}`} onClick={() => actions.onEdit(domain)}>
                            <IconPencil size={18} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Delete">
                          <ActionIcon variant="subtle" color="red" aria-label={`Delete ${domain.domain}`} onClick={() => actions.onDelete(domain)}>
                            <IconTrash size={18} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    )}
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
