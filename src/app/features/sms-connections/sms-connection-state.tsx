import { Badge, Group, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { SmsConnectionState } from '../../api/gen/types.gen';
import { formatCount, formatTimestamp } from '../../lib/format';

const CIRCUIT: Record<SmsConnectionState['circuit'], { label: string; color: string; explanation: string }> = {
  closed: { label: 'Circuit closed', color: 'teal', explanation: 'Messages go through it.' },
  open: { label: 'Circuit open', color: 'red', explanation: 'Backed off after repeated failures: routes skip it until it is probed again.' },
  half_open: { label: 'Probing', color: 'orange', explanation: 'Being tried again after a backoff: a success closes the circuit.' },
};

/** The circuit breaker's state as a badge; its sentence in a tooltip and for screen readers. */
export function CircuitBadge({ state }: { state: SmsConnectionState }) {
  const circuit = CIRCUIT[state.circuit];
  const until = state.circuit === 'open' && state.open_until ? ` Probed again at ${formatTimestamp(state.open_until)}.` : '';
  return (
    <Tooltip label={circuit.explanation + until} multiline maw={280} withArrow>
      {/* Positioned, so that its hidden sentence stays inside a table that scrolls sideways (not widening the page). */}
      <Badge color={circuit.color} variant="light" pos="relative" style={{ whiteSpace: 'nowrap' }}>
        {circuit.label}
        <VisuallyHidden>
          : {circuit.explanation}
          {until}
        </VisuallyHidden>
      </Badge>
    </Tooltip>
  );
}

/** Today's counts, in one line: messages, errors, failovers (UTC day). */
export function TodayCounts({ state }: { state: SmsConnectionState }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
      {formatCount(state.messages_today)} sent · {formatCount(state.errors_today)} errors · {formatCount(state.failovers_today)} failovers
    </Text>
  );
}

/** The provider's last error with its time, or that there was none. */
export function LastError({ state }: { state: SmsConnectionState }) {
  if (!state.last_error) {
    return (
      <Text size="sm" c="dimmed">
        No error
      </Text>
    );
  }
  return (
    <Stack gap={0}>
      <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }}>
        {state.last_error}
      </Text>
      {state.last_error_at && (
        <Text size="xs" c="dimmed">
          at {formatTimestamp(state.last_error_at, undefined, { seconds: true })}
        </Text>
      )}
    </Stack>
  );
}

/** The whole state in a table cell: the circuit, today's counts and the last error. */
export function StateSummary({ state }: { state: SmsConnectionState }) {
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="nowrap">
        <CircuitBadge state={state} />
      </Group>
      <TodayCounts state={state} />
      <LastError state={state} />
    </Stack>
  );
}
