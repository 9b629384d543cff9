import { Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { describeError } from '../../api/api-error';
import { formatCount } from '../../lib/format';
import type { SegmentDraft } from './segment-form-values';
import { segmentQueries } from './segment-queries';

/** How long the builder waits for the editing to settle before it asks for the count again. */
export const LIVE_COUNT_DEBOUNCE_MS = 400;

/**
 * How many of the team's numbers the conditions match now, asked again (POST /segments/count) once
 * the editing has settled for {@link LIVE_COUNT_DEBOUNCE_MS}; the last count stays, marked as being
 * counted again, while the next one comes. Null while a condition is unfinished: nothing is asked.
 */
export function SegmentLiveCount({ draft }: { draft: SegmentDraft | null }) {
  // Compared by content: a re-render that rebuilt an equal draft neither restarts the wait nor asks again.
  const key = draft ? JSON.stringify(draft) : null;
  const [settledKey] = useDebouncedValue(key, LIVE_COUNT_DEBOUNCE_MS);
  const settled = useMemo(() => (settledKey ? (JSON.parse(settledKey) as SegmentDraft) : null), [settledKey]);
  const count = useQuery({ ...segmentQueries.draftCount(settled ?? { match: 'all', conditions: [] }), enabled: settled !== null });
  const waiting = key !== settledKey || count.isFetching;

  return (
    <SegmentCountPanel
      title="Live count"
      count={settled && count.data !== undefined ? count.data : undefined}
      counting={draft !== null && waiting}
      note={
        draft === null
          ? 'Finish the conditions to see how many contacts match.'
          : count.isError && !waiting
            ? `The count could not be read: ${describeError(count.error)}`
            : 'Counted now, from the team’s contacts and what they did; it changes as they do.'
      }
    />
  );
}

/** A count of contacts with a note under it; announced politely when it changes. */
export function SegmentCountPanel({ title, count, counting, note }: { title: string; count: number | undefined; counting: boolean; note: string }) {
  return (
    <Paper withBorder radius="md" p="md" pos={{ md: 'sticky' }} top={{ md: 16 }}>
      <Stack gap={4}>
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h5">
            {title}
          </Title>
          {counting && (
            <Group gap={6} aria-hidden>
              <Loader size="xs" />
              <Text size="xs" c="dimmed">
                Counting…
              </Text>
            </Group>
          )}
        </Group>
        <div role="status" aria-live="polite" aria-busy={counting}>
          <Text fz={32} fw={700} lh={1.2} style={counting ? { opacity: 0.6 } : undefined}>
            {count === undefined ? '—' : formatCount(count)}
          </Text>
          <Text size="sm">{count === undefined ? 'contacts' : count === 1 ? 'contact matches' : 'contacts match'}</Text>
        </div>
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      </Stack>
    </Paper>
  );
}
