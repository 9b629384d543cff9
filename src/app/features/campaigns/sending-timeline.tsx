import { Box, Group, List, Paper, Text, ThemeIcon } from '@mantine/core';
import { IconMoon, IconPlayerPauseFilled, IconSend } from '@tabler/icons-react';
import { useMemo } from 'react';
import { quietPeriods, type QuietHours } from '../../../shared/schedule/quiet-hours';
import { parseTimestamp } from '../../../shared/time/local-timestamps';
import { formatDuration, sendingPlan, type TimelineSpan } from './sending-plan';

// Colours that follow the scheme (light or dark).
const PAUSE_STRIPES = 'repeating-linear-gradient(135deg, var(--mantine-color-default-hover) 0 6px, var(--mantine-color-default-border) 6px 8px)';
const QUIET_STRIPES = 'repeating-linear-gradient(45deg, var(--mantine-color-violet-light) 0 6px, var(--mantine-color-violet-light-hover) 6px 8px)';

const LOOK: Record<TimelineSpan['kind'], { label: string; color: string; background: string }> = {
  sending: { label: 'Sending', color: 'indigo', background: 'var(--mantine-color-indigo-5)' },
  paused: { label: 'Paused', color: 'gray', background: PAUSE_STRIPES },
  quiet: { label: 'Quiet hours', color: 'violet', background: QUIET_STRIPES },
};

interface SendingTimelineProps {
  send: string;
  finish: string;
  pauses: readonly { start_at: string; end_at: string }[];
  timeZone: string;
  /** The team's quiet hours and its zone, when they apply to this campaign. */
  quiet?: { hours: QuietHours; zone: string } | null;
}

/**
 * The planned sending of a throttled campaign: a bar from send to finish with its pauses and the
 * team's quiet hours cut out, and each part's times.
 */
export function SendingTimeline({ send, finish, pauses, timeZone, quiet }: SendingTimelineProps) {
  const quietWindows = useMemo(() => {
    const from = parseTimestamp(send, timeZone)?.getTime();
    const to = parseTimestamp(finish, timeZone)?.getTime();
    return quiet && from !== undefined && to !== undefined ? quietPeriods(quiet.hours, quiet.zone, from, to) : [];
  }, [quiet, send, finish, timeZone]);
  const plan = sendingPlan({ send, finish, pauses, quiet: quietWindows }, timeZone);
  if (!plan) {
    return (
      <Text size="sm" c="dimmed">
        The timeline appears once the send date is before the finish date.
      </Text>
    );
  }
  const gapCount = plan.spans.filter((span) => span.kind !== 'sending').length;
  const quietCount = plan.spans.filter((span) => span.kind === 'quiet').length;
  return (
    <Paper withBorder radius="md" p="md" role="region" aria-label="Sending timeline">
      <Group justify="space-between" mb="xs">
        <Text size="sm" fw={600}>
          Sending timeline
        </Text>
        <Text size="xs" c="dimmed">
          Sends for {formatDuration(plan.openMs)} of {formatDuration(plan.totalMs)}
          {gapCount > 0 && `, ${gapCount} ${gapCount === 1 ? 'gap' : 'gaps'}`} · {timeZone}
        </Text>
      </Group>
      <Box pos="relative" h={28} style={{ borderRadius: 6, overflow: 'hidden' }} bg="var(--mantine-color-default-hover)" aria-hidden>
        {plan.spans.map((span) => (
          <Box
            key={`${span.kind}-${span.from}`}
            pos="absolute"
            top={0}
            bottom={0}
            data-kind={span.kind}
            style={{
              left: `${span.from * 100}%`,
              width: `${(span.to - span.from) * 100}%`,
              background: LOOK[span.kind].background,
              borderLeft: span.from > 0 ? '1px solid var(--mantine-color-body)' : undefined,
            }}
          />
        ))}
      </Box>
      <Group justify="space-between" mt={4} mb="sm" aria-hidden>
        <Text size="xs" c="dimmed">
          {plan.spans[0]?.start}
        </Text>
        <Text size="xs" c="dimmed">
          {plan.spans.at(-1)?.end}
        </Text>
      </Group>
      <List spacing={4} size="sm" aria-label="Sending windows and pauses">
        {plan.spans.map((span) => (
          <List.Item
            key={`${span.kind}-${span.from}`}
            icon={
              <ThemeIcon size={18} radius="xl" variant="light" color={LOOK[span.kind].color}>
                {span.kind === 'sending' ? <IconSend size={11} /> : span.kind === 'quiet' ? <IconMoon size={11} /> : <IconPlayerPauseFilled size={11} />}
              </ThemeIcon>
            }
          >
            <Text span size="sm" fw={span.kind === 'sending' ? 400 : 600} c={span.kind === 'sending' ? undefined : 'gray.7'}>
              {LOOK[span.kind].label} {span.start} – {span.end}
            </Text>
          </List.Item>
        ))}
      </List>
      {quietCount > 0 && quiet && (
        <Text size="xs" c="dimmed" mt="xs">
          Quiet hours are drawn in the team’s zone ({quiet.zone}). Each recipient is held during the quiet hours of their own number’s country, so numbers
          abroad may go at other times.
        </Text>
      )}
    </Paper>
  );
}
