import { Badge, Group, Text } from '@mantine/core';

/** The names of the headers a receiver is called with, as badges; their values (often secrets) are not shown. */
export function HeaderNames({ headers }: { headers: Record<string, string> }) {
  const names = Object.keys(headers);
  if (names.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Group gap={4}>
      {names.map((name) => (
        <Badge key={name} variant="default" size="sm" tt="none">
          {name}
        </Badge>
      ))}
    </Group>
  );
}
