import { Badge, Button, Code, Group, Text } from '@mantine/core';
import { parseTimestamp } from '../../../shared/time/local-timestamps';
import type { ApiToken } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { formatTimestamp } from '../../lib/format';

export const API_TOKEN_COLUMNS = ['Name', 'Team', 'Token', 'Expires', 'Last used', 'Created', 'Actions'] as const;

interface ApiTokensTableProps {
  tokens: readonly ApiToken[];
  /** The user's teams' names by uuid; a token of a team the user has left shows its uuid. */
  teamNames: ReadonlyMap<string, string>;
  /** The service's zone (APP_TIMEZONE), to tell an expired token. */
  timeZone: string;
  /** When the list was read (ms since the epoch): a token whose expiry had passed then is marked expired. */
  readAt: number;
  onRevoke: (token: ApiToken) => void;
}

function Expiry({ expiresAt, timeZone, readAt }: { expiresAt: string; timeZone: string; readAt: number }) {
  if (!expiresAt) return <Text size="sm">Never</Text>;
  const moment = parseTimestamp(expiresAt, timeZone);
  const expired = moment !== null && moment.getTime() <= readAt;
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm">{formatTimestamp(expiresAt)}</Text>
      {expired && (
        <Badge color="red" variant="light" size="sm" style={{ flexShrink: 0 }}>
          Expired
        </Badge>
      )}
    </Group>
  );
}

export function ApiTokensTable({ tokens, teamNames, timeZone, readAt, onRevoke }: ApiTokensTableProps) {
  const columns: DataColumn<ApiToken>[] = [
    {
      key: 'name',
      header: 'Name',
      cell: (token) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" fw={500}>
            {token.name}
          </Text>
          {token.scope === 'read_only' && (
            <Badge color="gray" variant="light" size="sm" style={{ flexShrink: 0 }}>
              Read-only
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'team',
      header: 'Team',
      cell: (token) =>
        teamNames.get(token.team_uuid) ?? (
          <Code fz="xs" title="A team you are no longer in">
            {token.team_uuid}
          </Code>
        ),
    },
    { key: 'token', header: 'Token', cell: (token) => <Code>{token.hint}</Code> },
    { key: 'expires', header: 'Expires', cell: (token) => <Expiry expiresAt={token.expires_at} timeZone={timeZone} readAt={readAt} /> },
    { key: 'last_used', header: 'Last used', cell: (token) => formatTimestamp(token.last_used_at, 'Never') },
    { key: 'created', header: 'Created', cell: (token) => formatTimestamp(token.created_at) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      // A word, not an icon: revoking is the one thing a token's row does.
      cell: (token) => (
        <Button size="xs" variant="subtle" color="red" onClick={() => onRevoke(token)} aria-label={`Revoke ${token.name}`}>
          Revoke
        </Button>
      ),
    },
  ];
  return <DataTable label="API tokens" columns={columns} rows={tokens} rowKey={(token) => token.uuid} minWidth={860} />;
}
