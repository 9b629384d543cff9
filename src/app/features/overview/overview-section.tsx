import { Anchor, Box, Group, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface OverviewSectionProps {
  /** Names the heading's id (`${id}-title`), which names the section. */
  id: string;
  title: string;
  /** Beside the heading: a badge, or a link to the whole list. */
  aside?: ReactNode;
  children: ReactNode;
}

/** A bordered part of the overview with its heading; a landmark named by the heading. */
export function OverviewSection({ id, title, aside, children }: OverviewSectionProps) {
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} component="section" aria-labelledby={`${id}-title`} h="100%">
      <Group justify="space-between" align="center" gap="xs" mb="sm">
        <Title order={2} size="h4" id={`${id}-title`}>
          {title}
        </Title>
        {aside}
      </Group>
      {children}
    </Paper>
  );
}

/** The link to the whole list, beside a section's heading. */
export function SectionLink({ to, children }: { to: string; children: string }) {
  return (
    <Anchor component={Link} to={to} size="sm">
      {children}
    </Anchor>
  );
}

/** What an empty list says: what would be here, and where to make it happen. */
export function EmptyNote({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

/** A plain list whose items are separated by a line; `label` names it for screen readers. */
export function ItemList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box component="ul" m={0} p={0} aria-label={label} style={{ listStyle: 'none' }}>
      {children}
    </Box>
  );
}

export function Item({ children }: { children: ReactNode }) {
  return (
    <Box component="li" py="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      {children}
    </Box>
  );
}
