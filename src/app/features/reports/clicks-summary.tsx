import { Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import type { CampaignReportSummary } from '../../api/gen/types.gen';
import { formatCount, formatRate } from './report-format';

/** One figure of a summary: a label, the number, and a line under it. */
export function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper withBorder radius="md" px="sm" py={8} role="listitem" aria-label={`${label}: ${value}`}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} lh={1.3}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

/**
 * The clicks report's headline: the recipients who clicked as people, the click rate over the
 * messages delivered, and the clicks split between people and link-preview bots (a chat app
 * fetching the link to show a preview is not a person clicking).
 */
export function ClicksSummary({ summary }: { summary: CampaignReportSummary | undefined }) {
  if (!summary) return <Skeleton height={78} radius="md" />;
  const people = summary.unique_human_clickers;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" role="list" aria-label="Clicks in figures">
      <Figure label="Unique human clicks" value={formatCount(people)} hint={`${people === 1 ? 'recipient' : 'recipients'} who clicked`} />
      <Figure label="Click rate" value={formatRate(summary.click_rate)} hint={`of ${formatCount(summary.delivered)} delivered`} />
      <Figure label="Clicks by people" value={formatCount(summary.clicks_human)} hint="every click, repeats included" />
      <Figure label="Link previews" value={formatCount(summary.clicks_bot)} hint="fetched by chat apps (bots)" />
    </SimpleGrid>
  );
}
