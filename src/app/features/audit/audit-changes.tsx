import { Anchor, Box, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import type { AuditChange } from '../../api/gen/types.gen';

/** Changes listed before the rest fold away behind "Show all". */
export const CHANGES_SHOWN = 3;

/** A recorded value as a person reads it: `yes`, `none`, `empty`, a list joined by commas… */
export function formatChangeValue(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return value === '' ? 'empty' : value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map((item) => formatChangeValue(item)).join(', ');
  return JSON.stringify(value);
}

function ChangeLine({ field, change }: { field: string; change: AuditChange }) {
  const had = 'before' in change;
  const has = 'after' in change;
  return (
    <Text component="li" size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span inherit ff="monospace" fw={600}>
        {field}
      </Text>
      {': '}
      {had && (
        <Text span inherit c="dimmed">
          {formatChangeValue(change.before)}
        </Text>
      )}
      {had && ' → '}
      {has ? (
        formatChangeValue(change.after)
      ) : (
        <Text span inherit fs="italic">
          removed
        </Text>
      )}
    </Text>
  );
}

/** An event's changes as `field: before → after` lines; a long list shows its first lines and a "Show all". */
export function AuditChanges({ changes }: { changes: Record<string, AuditChange> }) {
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const entries = Object.entries(changes);
  if (entries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  const shown = expanded ? entries : entries.slice(0, CHANGES_SHOWN);
  return (
    <Stack gap={4} align="flex-start">
      <Box component="ul" id={listId} m={0} p={0} style={{ listStyle: 'none' }} aria-label="Changes">
        {shown.map(([field, change]) => (
          <ChangeLine key={field} field={field} change={change} />
        ))}
      </Box>
      {entries.length > CHANGES_SHOWN && (
        <Anchor component="button" type="button" size="xs" aria-expanded={expanded} aria-controls={listId} onClick={() => setExpanded((open) => !open)}>
          {expanded ? 'Show fewer' : `Show all ${entries.length} changes`}
        </Anchor>
      )}
    </Stack>
  );
}
