import { Badge, Button, Code, Group, Paper, Table, Text } from '@mantine/core';
import { parseTimestamp } from '../../../shared/time/local-timestamps';
import type { ApiToken } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { TableScroll } from '../../components/table-scroll';

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
  return (
    <Paper withBorder radius="md">
      <TableScroll minWidth={860}>
        <Table aria-label="API tokens">
          <Table.Thead>
            <Table.Tr>
              {API_TOKEN_COLUMNS.map((column) => (
                <Table.Th key={column} ta={column === 'Actions' ? 'right' : undefined}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.map((token) => (
              <Table.Tr key={token.uuid}>
                <Table.Td>
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
                </Table.Td>
                <Table.Td>
                  {teamNames.get(token.team_uuid) ?? (
                    <Code fz="xs" title="A team you are no longer in">
                      {token.team_uuid}
                    </Code>
                  )}
                </Table.Td>
                <Table.Td>
                  <Code>{token.hint}</Code>
                </Table.Td>
                <Table.Td>
                  <Expiry expiresAt={token.expires_at} timeZone={timeZone} readAt={readAt} />
                </Table.Td>
                <Table.Td>{formatTimestamp(token.last_used_at, 'Never')}</Table.Td>
                <Table.Td>{formatTimestamp(token.created_at)}</Table.Td>
                <Table.Td ta="right">
                  <Button size="xs" variant="subtle" color="red" onClick={() => onRevoke(token)} aria-label={`Revoke ${token.name}`}>
                    Revoke
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
    </Paper>
  );
}
