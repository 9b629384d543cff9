import { Box, Group, List, Paper, Text, ThemeIcon } from '@mantine/core';
import { IconPlayerPauseFilled, IconSend } from '@tabler/icons-react';
import { formatDuration, sendingPlan } from './sending-plan';

const PAUSE_STRIPES = 'repeating-linear-gradient(135deg, var(--mantine-color-gray-2) 0 6px, var(--mantine-color-gray-4) 6px 8px)';

interface SendingTimelineProps {
  send: string;
  finish: string;
  pauses: readonly { start_at: string; end_at: string }[];
  timeZone: string;
}

/** The planned sending of a throttled campaign: a bar from send to finish with its pauses cut out, and each part's times. */
export function SendingTimeline({ send, finish, pauses, timeZone }: SendingTimelineProps) {
  const plan = sendingPlan({ send, finish, pauses }, timeZone);
  if (!plan) {
    return (
      <Text size="sm" c="dimmed">
        The timeline appears once the send date is before the finish date.
      </Text>
    );
  }
  const pauseCount = plan.spans.filter((span) => span.kind === 'paused').length;
  return (
    <Paper withBorder radius="md" p="md" role="region" aria-label="Sending timeline">
      <Group justify="space-between" mb="xs">
        <Text size="sm" fw={600}>
          Sending timeline
        </Text>
        <Text size="xs" c="dimmed">
          Sends for {formatDuration(plan.openMs)} of {formatDuration(plan.totalMs)}
          {pauseCount > 0 && `, ${pauseCount} ${pauseCount === 1 ? 'gap' : 'gaps'}`} · {timeZone}
        </Text>
      </Group>
      <Box pos="relative" h={28} style={{ borderRadius: 6, overflow: 'hidden' }} bg="gray.1" aria-hidden>
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
              background: span.kind === 'sending' ? 'var(--mantine-color-indigo-5)' : PAUSE_STRIPES,
              borderLeft: span.from > 0 ? '1px solid var(--mantine-color-white)' : undefined,
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
              <ThemeIcon size={18} radius="xl" variant="light" color={span.kind === 'sending' ? 'indigo' : 'gray'}>
                {span.kind === 'sending' ? <IconSend size={11} /> : <IconPlayerPauseFilled size={11} />}
              </ThemeIcon>
            }
          >
            <Text span size="sm" fw={span.kind === 'paused' ? 600 : 400} c={span.kind === 'paused' ? 'gray.7' : undefined}>
              {span.kind === 'sending' ? 'Sending' : 'Paused'} {span.start} – {span.end}
            </Text>
          </List.Item>
        ))}
      </List>
    </Paper>
  );
}
