import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { formatCount } from '../../lib/format';

interface ContactSectionProps {
  title: string;
  /** How many there are in all; the page holds at most the newest 100 (the export has them all). */
  total: number;
  shown: number;
  /** What to say when there is none. */
  empty: string;
  /** Shown under the heading whatever the count (a state the records do not say). */
  before?: ReactNode;
  children: ReactNode;
}

/** One kind of record about the number: a heading with its count, then the records or a sentence. */
export function ContactSection({ title, total, shown, empty, before, children }: ContactSectionProps) {
  const headingId = useId();
  return (
    <Stack component="section" aria-labelledby={headingId} gap="xs" mb="xl">
      <Group gap="xs">
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        <Badge variant="light" color="gray" aria-label={`${total} in all`}>
          {formatCount(total)}
        </Badge>
      </Group>
      {before}
      {total === 0 ? (
        <Paper withBorder radius="md" p="md">
          <Text size="sm" c="dimmed">
            {empty}
          </Text>
        </Paper>
      ) : (
        <>
          {children}
          {shown < total && (
            <Text size="sm" c="dimmed">
              The newest {formatCount(shown)} of {formatCount(total)}; the data download holds them all.
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
