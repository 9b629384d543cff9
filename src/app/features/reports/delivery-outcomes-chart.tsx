import { Box, Group, Stack, Text } from '@mantine/core';
import type { CampaignSummary } from '../../api/gen/types.gen';
import { formatCount, formatRate } from './report-format';

export interface Outcome {
  label: string;
  count: number;
  color: string;
}

/**
 * Where the campaign's messages ended up. Pending is every recipient without a final state yet:
 * queued, awaiting a receipt, or (before the send time) not yet made.
 */
export function deliveryOutcomes(summary: CampaignSummary): Outcome[] {
  const pending = Math.max(0, summary.recipients - summary.delivered - summary.failed - summary.unsent);
  return [
    { label: 'Delivered', count: summary.delivered, color: 'teal.6' },
    { label: 'Failed', count: summary.failed, color: 'red.6' },
    { label: 'Unsent', count: summary.unsent, color: 'orange.4' },
    { label: 'Pending', count: pending, color: 'gray.5' },
  ];
}

/** A share of the recipients, written like every rate (one decimal, never "0%" for a count above 0). */
function percentOf(count: number, total: number): string {
  return total === 0 ? '0%' : formatRate(count / total);
}

const cssColor = (color: string) => `var(--mantine-color-${color.replace('.', '-')})`;

/** One bar per outcome over the recipients; each bar's numbers are written beside it, so the bars need no other text. */
export function DeliveryOutcomesChart({ summary }: { summary: CampaignSummary }) {
  const outcomes = deliveryOutcomes(summary);
  const total = summary.recipients;
  return (
    <Stack
      gap={10}
      component="ul"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label={`Delivery outcomes of ${formatCount(total)} ${total === 1 ? 'recipient' : 'recipients'}`}
    >
      {outcomes.map(({ label, count, color }) => (
        <li key={label}>
          <Group justify="space-between" gap="xs" mb={4}>
            <Text size="sm" fw={500}>
              {label}
            </Text>
            <Text size="sm">
              {formatCount(count)}{' '}
              <Text span size="sm" c="dimmed">
                ({percentOf(count, total)})
              </Text>
            </Text>
          </Group>
          <Box h={10} bg="var(--mantine-color-default-hover)" style={{ borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden' }} aria-hidden>
            <Box h="100%" w={`${total === 0 ? 0 : (count / total) * 100}%`} bg={cssColor(color)} style={{ borderRadius: 'var(--mantine-radius-sm)' }} />
          </Box>
        </li>
      ))}
    </Stack>
  );
}
