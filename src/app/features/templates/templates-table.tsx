import { Anchor, Badge, Group, Text } from '@mantine/core';
import { IconLock, IconPencil, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Template, VanityDomain } from '../../api/gen/types.gen';
import { DataTable, type DataColumn, type RowAction } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { EncodingBadge } from './encoding-badge';
import { draftMessage, sampleShortLinks } from './message-draft';

export const TEMPLATE_COLUMNS = ['Name', 'Sender', 'Encoding', 'Segments', 'Updated', 'Actions'] as const;

interface TemplatesTableProps {
  templates: readonly Template[];
  /** The team's link domains, to count each link at its short-link length. */
  vanityDomains: readonly VanityDomain[];
  /** Absent when the role may not change templates: the actions column goes (the name still opens the template). */
  onDelete?: (template: Template) => void;
}

export function TemplatesTable({ templates, vanityDomains, onDelete }: TemplatesTableProps) {
  const measure = (template: Template) => draftMessage(template.body, sampleShortLinks(template.links, vanityDomains)).measurement;
  const columns: DataColumn<Template>[] = [
    {
      key: 'name',
      header: 'Name',
      cell: (template) => (
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
      ),
    },
    { key: 'sender', header: 'Sender', cell: (template) => template.sender },
    { key: 'encoding', header: 'Encoding', cell: (template) => <EncodingBadge encoding={measure(template).encoding} /> },
    { key: 'segments', header: 'Segments', cell: (template) => <Text size="sm">{measure(template).segments}</Text> },
    { key: 'updated', header: 'Updated', cell: (template) => formatTimestamp(template.updated_at) },
  ];
  const actions: RowAction<Template>[] = onDelete
    ? [
        {
          label: 'Edit',
          name: (template) => `Edit ${template.name}`,
          icon: <IconPencil size={18} />,
          href: (template) => paths.templates.edit.getHref(template.uuid),
        },
        { label: 'Delete', name: (template) => `Delete ${template.name}`, icon: <IconTrash size={18} />, color: 'red', onClick: onDelete },
      ]
    : [];
  return <DataTable label="Templates" columns={columns} rows={templates} rowKey={(template) => template.uuid} actions={actions} minWidth={720} />;
}
