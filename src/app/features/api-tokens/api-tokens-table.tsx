import { Button, Code, Paper, Table, Text } from '@mantine/core';
import type { ApiToken } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/dates';

export const API_TOKEN_COLUMNS = ['Name', 'Token', 'Last used', 'Created', 'Actions'] as const;

interface ApiTokensTableProps {
  tokens: readonly ApiToken[];
  onRevoke: (token: ApiToken) => void;
}

export function ApiTokensTable({ tokens, onRevoke }: ApiTokensTableProps) {
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={640} type="native">
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
                  <Text size="sm" fw={500}>
                    {token.name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Code>{token.hint}</Code>
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
      </Table.ScrollContainer>
    </Paper>
  );
}
