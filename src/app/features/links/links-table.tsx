import { Anchor, Code, Text } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { Link, VanityDomain } from '../../api/gen/types.gen';
import { DataTable, type DataColumn, type RowAction } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';

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
  const columns: DataColumn<Link>[] = [
    { key: 'name', header: 'Shorthand', cell: (link) => <Code fw={600}>::{link.name}::</Code> },
    {
      key: 'destination',
      header: 'Destination',
      cellProps: { maw: 280 },
      cell: (link) => (
        <Anchor href={link.destination} target="_blank" rel="noreferrer noopener" size="sm" truncate="end" display="block">
          {link.destination}
        </Anchor>
      ),
    },
    {
      key: 'domain',
      header: 'Domain',
      cell: (link) => <Text size="sm">{vanityDomains.find((domain) => domain.uuid === link.vanity_domain_uuid)?.url_base ?? '—'}</Text>,
    },
    { key: 'updated', header: 'Updated', cell: (link) => formatTimestamp(link.updated_at) },
  ];
  const rowActions: RowAction<Link>[] = actions
    ? [
        { label: 'Edit', name: (link) => `Edit link ${link.name}`, icon: <IconPencil size={18} />, onClick: actions.onEdit, disabled: readOnly },
        {
          label: 'Delete',
          name: (link) => `Delete link ${link.name}`,
          icon: <IconTrash size={18} />,
          color: 'red',
          onClick: actions.onDelete,
          disabled: readOnly,
        },
      ]
    : [];
  return <DataTable label="Links" columns={columns} rows={links} rowKey={(link) => link.uuid} actions={rowActions} minWidth={640} />;
}
