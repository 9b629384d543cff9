import { Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  /** Buttons on the right, e.g. "New sender". */
  actions?: ReactNode;
}

/**
 * The one heading of a page; also names the browser tab. The buttons sit beside the title while
 * both fit, and wrap under it on a narrow screen (never squeezing the title into a column).
 */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  useDocumentTitle(`${title} · Herald`);
  return (
    <Group justify="space-between" align="flex-start" mb="lg" gap="md">
      <Stack gap={4} miw={0} style={{ flex: '1 1 18rem' }}>
        <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        )}
      </Stack>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}
