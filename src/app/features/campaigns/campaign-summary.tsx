import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { CampaignSummary } from '../../api/gen/types.gen';

const numberFormat = new Intl.NumberFormat('en-GB');

const COUNTS: { key: keyof CampaignSummary; label: string }[] = [
  { key: 'recipients', label: 'Recipients' },
  { key: 'queued', label: 'Queued' },
  { key: 'submitted', label: 'Submitted' },
  { key: 'delivered', label: 'Delivered' },
  { key: 'failed', label: 'Failed' },
  { key: 'unsent', label: 'Unsent' },
  { key: 'clicks', label: 'Clicks' },
];

/** The campaign's counts: recipients before sending, then where its messages are. */
export function CampaignSummaryCounts({ summary }: { summary: CampaignSummary }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }} spacing="sm" role="list" aria-label="Campaign summary">
      {COUNTS.map(({ key, label }) => (
        <Paper key={key} withBorder radius="md" p="sm" role="listitem" aria-label={`${label}: ${summary[key]}`}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {label}
          </Text>
          <Text size="xl" fw={700}>
            {numberFormat.format(summary[key])}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
