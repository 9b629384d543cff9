import { Anchor, Button, Group, Paper, Skeleton, Text, Title } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { CampaignReportSummary } from '../../api/gen/types.gen';
import { DataTable, type DataColumn } from '../../components/data-table';
import { ErrorState } from '../../components/error-state';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import { formatCount, formatRate } from './report-format';
import { reportQueries } from './report-queries';

type Measure = { label: string; hint?: string } & (
  | { kind: 'count'; value: (summary: CampaignReportSummary) => number }
  | { kind: 'rate'; value: (summary: CampaignReportSummary) => number | null; higherIsBetter: boolean }
);

/** The figures compared, in the order a campaign's life has them. */
const MEASURES: Measure[] = [
  { label: 'Messages', kind: 'count', value: (s) => s.messages },
  { label: 'Sent', kind: 'count', value: (s) => s.sent, hint: 'taken by the gateway' },
  { label: 'Delivered', kind: 'count', value: (s) => s.delivered },
  { label: 'Delivery rate', kind: 'rate', value: (s) => s.delivery_rate, higherIsBetter: true, hint: 'delivered ÷ sent' },
  { label: 'Failed', kind: 'count', value: (s) => s.failed },
  { label: 'Expired', kind: 'count', value: (s) => s.expired },
  { label: 'Not sent', kind: 'count', value: (s) => s.unsent },
  { label: 'Unique human clicks', kind: 'count', value: (s) => s.unique_human_clickers, hint: 'recipients who clicked' },
  { label: 'Click rate', kind: 'rate', value: (s) => s.click_rate, higherIsBetter: true, hint: 'unique human clicks ÷ delivered' },
  { label: 'Clicks by people', kind: 'count', value: (s) => s.clicks_human },
  { label: 'Link previews', kind: 'count', value: (s) => s.clicks_bot, hint: 'fetched by chat apps' },
  { label: 'Opt-outs', kind: 'count', value: (s) => s.opt_outs },
  { label: 'Opt-out rate', kind: 'rate', value: (s) => s.opt_out_rate, higherIsBetter: false, hint: 'opt-outs ÷ delivered' },
];

/** The second campaign against the first: "+120", "−2.1 pts"; empty when either has no value. */
export function difference(measure: Measure, first: CampaignReportSummary, second: CampaignReportSummary): string {
  const a = measure.value(first);
  const b = measure.value(second);
  if (a === null || b === null) return '';
  const change = b - a;
  if (measure.kind === 'rate') {
    const points = Math.round(change * 1000) / 10;
    return points === 0 ? '0 pts' : `${points > 0 ? '+' : '−'}${formatCount(Math.abs(points))} pts`;
  }
  return change === 0 ? '0' : `${change > 0 ? '+' : '−'}${formatCount(Math.abs(change))}`;
}

/** Whether a rate's difference is good news (green) or bad (red); counts are neither. */
function differenceColor(measure: Measure, first: CampaignReportSummary, second: CampaignReportSummary): string | undefined {
  if (measure.kind !== 'rate') return 'dimmed';
  const a = measure.value(first);
  const b = measure.value(second);
  if (a === null || b === null || a === b) return 'dimmed';
  return b > a === measure.higherIsBetter ? 'var(--mantine-color-teal-text)' : 'var(--mantine-color-red-text)';
}

function show(measure: Measure, summary: CampaignReportSummary): string {
  return measure.kind === 'rate' ? formatRate(measure.value(summary)) : formatCount(measure.value(summary));
}

const boldRates = (measure: Measure) => ({ fw: measure.kind === 'rate' ? 700 : undefined });

function CampaignHeader({ summary }: { summary: CampaignReportSummary }) {
  return (
    <>
      <Anchor component={Link} to={paths.campaigns.detail.getHref(summary.campaign_uuid, { report: 'delivery' })} size="sm" fw={600}>
        {summary.name}
      </Anchor>
      <Text size="xs" c="dimmed" fw={400}>
        {formatTimestamp(summary.started_sending_at)}
      </Text>
    </>
  );
}

/** A row a figure: its name, each campaign's value, and the change. */
function comparisonColumns(first: CampaignReportSummary, second: CampaignReportSummary): DataColumn<Measure>[] {
  return [
    {
      key: 'figure',
      header: 'Figure',
      rowHeader: true,
      cellProps: (measure) => ({ fw: measure.kind === 'rate' ? 700 : 500 }),
      cell: (measure) => (
        <>
          {measure.label}
          {measure.hint && (
            <Text size="xs" c="dimmed" fw={400} visibleFrom="sm">
              {measure.hint}
            </Text>
          )}
        </>
      ),
    },
    ...[first, second].map((summary): DataColumn<Measure> => ({
      key: summary.campaign_uuid,
      header: <CampaignHeader summary={summary} />,
      align: 'right',
      cellProps: boldRates,
      cell: (measure) => show(measure, summary),
    })),
    {
      key: 'change',
      header: 'Change',
      align: 'right',
      headerProps: { title: 'The second campaign against the first' },
      cellProps: { style: { whiteSpace: 'nowrap' } },
      cell: (measure) => (
        <Text span size="xs" c={differenceColor(measure, first, second)}>
          {difference(measure, first, second)}
        </Text>
      ),
    },
  ];
}

interface CampaignComparisonProps {
  /** The two campaigns' uuids, in the order they were chosen. */
  uuids: readonly [string, string];
  onClear: () => void;
}

/** Two campaigns side by side: every figure of their reports, and how the second differs from the first. */
export function CampaignComparison({ uuids, onClear }: CampaignComparisonProps) {
  const summaries = useQueries({ queries: uuids.map((uuid) => reportQueries.summary(uuid)) });
  const failed = summaries.find((query) => query.isError);
  const [first, second] = summaries.map((query) => query.data);

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="comparison-title">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4" id="comparison-title">
          Comparison
        </Title>
        <Button variant="subtle" leftSection={<IconX size={16} aria-hidden />} onClick={onClear}>
          Clear the comparison
        </Button>
      </Group>
      {failed ? (
        <ErrorState title="The campaigns could not be compared." error={failed.error} onRetry={() => summaries.forEach((query) => void query.refetch())} />
      ) : !first || !second ? (
        <Skeleton height={420} radius="md" />
      ) : (
        // Four narrow columns fit a phone: the figures' explanations show from the small breakpoint up.
        <DataTable
          label="Comparison of two campaigns"
          columns={comparisonColumns(first, second)}
          rows={MEASURES}
          rowKey={(measure) => measure.label}
          minWidth={0}
          tableProps={{ striped: true, horizontalSpacing: 6 }}
          withPanel={false}
        />
      )}
    </Paper>
  );
}
