import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { IconKey, IconLock, IconUserQuestion } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { AuditEvent } from '../../api/gen/types.gen';
import { paths } from '../../paths';
import { AuditChanges } from './audit-changes';
import { ACTOR_KIND_LABELS, eventLabel, isRefused, resourceHref, resourceLabel } from './audit-labels';
import { DataTable, type DataColumn } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';

export const AUDIT_COLUMNS = ['Time', 'Who', 'Action', 'Resource', 'Changes', 'IP address'] as const;

/** The event's moment, already in the service's zone, to the second (an audit needs the order of close events). */
export function formatEventTime(timestamp: string): string {
  return formatTimestamp(timestamp, timestamp, { seconds: true });
}

const shortUuid = (uuid: string) => uuid.slice(0, 8);

function Actor({ actor }: { actor: AuditEvent['actor'] }) {
  return (
    <Stack gap={4} align="flex-start">
      {actor.name ? (
        <Text size="sm" fw={500} style={{ overflowWrap: 'break-word' }}>
          {actor.name}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          Unknown
        </Text>
      )}
      {actor.kind === 'token' && (
        <Badge size="sm" variant="light" color="grape" tt="none" leftSection={<IconKey size={12} aria-hidden />}>
          {ACTOR_KIND_LABELS.token}
        </Badge>
      )}
      {actor.kind === 'anonymous' && (
        <Badge size="sm" variant="light" color="gray" tt="none" leftSection={<IconUserQuestion size={12} aria-hidden />}>
          {ACTOR_KIND_LABELS.anonymous}
        </Badge>
      )}
    </Stack>
  );
}

function Action({ event }: { event: AuditEvent }) {
  const refused = isRefused(event.action);
  const failed = event.action === 'loginFailed';
  return (
    <Stack gap={2} align="flex-start">
      <Group gap={4} wrap="nowrap">
        {refused && <IconLock size={14} aria-hidden color="var(--mantine-color-orange-text)" />}
        <Text size="sm" fw={500} c={refused ? 'orange.9' : failed ? 'red.8' : undefined}>
          {eventLabel(event)}
        </Text>
      </Group>
      <Text size="xs" c="dimmed" ff="monospace">
        {event.action}
      </Text>
    </Stack>
  );
}

function Resource({ event, showHistory }: { event: AuditEvent; showHistory: boolean }) {
  const label = resourceLabel(event.resource_type);
  if (!label) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  const href = resourceHref(event);
  const uuid = event.resource_uuid;
  const name = uuid ? (
    <>
      {label}{' '}
      <Text span inherit ff="monospace" title={uuid}>
        {shortUuid(uuid)}
      </Text>
    </>
  ) : (
    label
  );
  return (
    <Stack gap={2} align="flex-start">
      {href ? (
        <Anchor component={Link} to={href} size="sm">
          {name}
        </Anchor>
      ) : (
        <Text size="sm">{name}</Text>
      )}
      {uuid && showHistory && (
        <Anchor component={Link} to={paths.audit.getHref({ resourceUuid: uuid })} size="xs" aria-label={`History of ${label.toLowerCase()} ${shortUuid(uuid)}`}>
          History
        </Anchor>
      )}
    </Stack>
  );
}

interface AuditEventsTableProps {
  events: readonly AuditEvent[];
  /** The resource the log is filtered on, if any: its rows need no "History" link. */
  resourceUuid?: string;
}

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

export function AuditEventsTable({ events, resourceUuid }: AuditEventsTableProps) {
  const columns: DataColumn<AuditEvent>[] = [
    { key: 'Time', header: 'Time', headerProps: NO_WRAP, cellProps: NO_WRAP, cell: (event) => <Text size="sm">{formatEventTime(event.created_at)}</Text> },
    { key: 'Who', header: 'Who', headerProps: NO_WRAP, cellProps: { miw: 150, maw: 220 }, cell: (event) => <Actor actor={event.actor} /> },
    { key: 'Action', header: 'Action', headerProps: NO_WRAP, cell: (event) => <Action event={event} /> },
    {
      key: 'Resource',
      header: 'Resource',
      headerProps: NO_WRAP,
      cellProps: NO_WRAP,
      cell: (event) => <Resource event={event} showHistory={event.resource_uuid !== resourceUuid} />,
    },
    { key: 'Changes', header: 'Changes', headerProps: NO_WRAP, cellProps: { miw: 240, maw: 420 }, cell: (event) => <AuditChanges changes={event.changes} /> },
    {
      key: 'IP address',
      header: 'IP address',
      headerProps: NO_WRAP,
      cell: (event) => (
        <Text size="xs" ff="monospace">
          {event.ip || '—'}
        </Text>
      ),
    },
  ];
  return (
    <DataTable
      label="Audit events"
      columns={columns}
      rows={events}
      rowKey={(event) => event.uuid}
      rowProps={() => ({ style: { verticalAlign: 'top' } })}
      tableProps={{ verticalSpacing: 'sm' }}
      minWidth={900}
    />
  );
}
