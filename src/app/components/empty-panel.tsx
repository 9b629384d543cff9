import { EmptyState, Paper } from '@mantine/core';
import type { ReactNode } from 'react';

interface EmptyPanelProps {
  icon: ReactNode;
  title: string;
  description: ReactNode;
  action?: ReactNode;
}

/** Mantine's EmptyState in a bordered panel, where a table would otherwise be. */
export function EmptyPanel({ icon, title, description, action }: EmptyPanelProps) {
  return (
    <Paper withBorder radius="md" py="xl" px="md">
      <EmptyState variant="light" icon={icon} title={title} description={description}>
        {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
      </EmptyState>
    </Paper>
  );
}
