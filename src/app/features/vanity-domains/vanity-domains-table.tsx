import { Badge, Code, Group, Text } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { VanityDomain } from '../../api/gen/types.gen';
import { DataTable, type DataColumn, type RowAction } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';

export const VANITY_DOMAIN_COLUMNS = ['Domain', 'Short links start with', 'Created', 'Actions'] as const;

interface VanityDomainsTableProps {
  domains: readonly VanityDomain[];
  /** Both absent when the role may not change vanity domains: the actions column goes. */
  actions?: { onEdit: (domain: VanityDomain) => void; onDelete: (domain: VanityDomain) => void };
}

const COLUMNS: DataColumn<VanityDomain>[] = [
  {
    key: 'domain',
    header: 'Domain',
    cell: (domain) => (
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
    ),
  },
  { key: 'url_base', header: 'Short links start with', cell: (domain) => <Code>{domain.url_base}/…</Code> },
  { key: 'created', header: 'Created', cell: (domain) => formatTimestamp(domain.created_at) },
];

export function VanityDomainsTable({ domains, actions }: VanityDomainsTableProps) {
  const rowActions: RowAction<VanityDomain>[] = actions
    ? [
        { label: 'Edit', name: (domain) => `Edit ${domain.domain}`, icon: <IconPencil size={18} />, onClick: actions.onEdit },
        { label: 'Delete', name: (domain) => `Delete ${domain.domain}`, icon: <IconTrash size={18} />, color: 'red', onClick: actions.onDelete },
      ]
    : [];
  return (
    <DataTable
      label="Vanity domains"
      columns={COLUMNS}
      rows={domains}
      rowKey={(domain) => domain.uuid}
      actions={rowActions}
      actionsInstead={(domain) =>
        domain.is_default ? (
          <Text size="xs" c="dimmed" ta="right">
            Built in, cannot be changed
          </Text>
        ) : undefined
      }
      minWidth={640}
    />
  );
}
