import { Alert, Badge, Box, ColorSwatch, Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import type { Campaign, CampaignSummary } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { comparePlan, formatCount, formatRate, LIVE_REFRESH_MS, sendingCounts, type PlanComparison, type SendingCounts } from './sending-progress';

type PanelCampaign = Pick<Campaign, 'status' | 'throttled' | 'scheduled_send_date' | 'scheduled_finish_date' | 'pauses' | 'finished_sending_at'> &
  Partial<Pick<Campaign, 'is_draft' | 'stopped_at'>>;

interface SendingProgressPanelProps {
  campaign: PanelCampaign;
  summary: CampaignSummary;
  /** When the counts were read (ms since the epoch): the moment the plan is compared at. */
  countedAt: number;
  timeZone: string;
  /** Messages a second between the last two readings; null until there are two. */
  sendRate: number | null;
}

/** The bar's parts, in the order messages settle; colours shared by the bar and its legend. */
const SECTIONS: { key: keyof SendingCounts; label: string; color: string }[] = [
  { key: 'delivered', label: 'Delivered', color: 'teal.6' },
  { key: 'awaitingReceipt', label: 'Awaiting receipt', color: 'blue.4' },
  { key: 'failed', label: 'Failed', color: 'red.6' },
  { key: 'unsent', label: 'Unsent', color: 'orange.4' },
  { key: 'queued', label: 'Queued', color: 'gray.5' },
];

const STANDING_COLOR: Record<PlanComparison['standing'], string> = { ahead: 'blue.7', behind: 'orange.8', 'on plan': 'teal.8' };

/** "3 of 3 sent: 3 delivered, 0 awaiting receipt, 0 failed; 0 unsent, 0 queued" — the bar in words. */
export function progressText(counts: SendingCounts): string {
  const c = (value: number) => formatCount(value);
  return (
    `${c(counts.sent)} of ${c(counts.recipients)} sent: ${c(counts.delivered)} delivered, ${c(counts.awaitingReceipt)} awaiting receipt, ` +
    `${c(counts.failed)} failed; ${c(counts.unsent)} unsent, ${c(counts.queued)} queued`
  );
}

/** Where a campaign's messages are: a stacked bar over the recipients, the counts, and while sending its rate and plan. */
export function SendingProgressPanel({ campaign, summary, countedAt, timeZone, sendRate }: SendingProgressPanelProps) {
  const counts = sendingCounts(summary);
  const sending = campaign.status === 1;
  const share = (value: number) => (counts.recipients > 0 ? (value / counts.recipients) * 100 : 0);
  const percent = Math.floor(share(counts.sent));
  const plan = sending ? comparePlan(campaign, counts, countedAt, timeZone) : null;

  return (
    <Stack gap="sm" role="region" aria-label="Sending progress">
      <Group justify="space-between" align="baseline">
        <Text fw={600}>
          {campaign.status === 0
            ? `${formatCount(counts.recipients)} ${counts.recipients === 1 ? 'recipient' : 'recipients'} · ${
                campaign.is_draft ? 'a draft: nothing is sent until it is scheduled' : `nothing is sent before ${formatTimestamp(campaign.scheduled_send_date)}`
              }`
            : `Sent ${formatCount(counts.sent)} of ${formatCount(counts.recipients)} (${percent}%)`}
        </Text>
        {sending ? (
          <Badge variant="dot" color="orange" size="lg">
            Live · refreshes every {LIVE_REFRESH_MS / 1000} s
          </Badge>
        ) : campaign.status === 2 ? (
          <Text size="sm" c="dimmed">
            {counts.awaitingReceipt > 0 ? `Waiting for ${formatCount(counts.awaitingReceipt)} ${counts.awaitingReceipt === 1 ? 'receipt' : 'receipts'} · ` : ''}
            {campaign.stopped_at ? `Stopped ${formatTimestamp(campaign.stopped_at)}` : `Finished ${formatTimestamp(campaign.finished_sending_at)}`}
          </Text>
        ) : null}
      </Group>

      <Progress.Root
        size={22}
        radius="md"
        role="progressbar"
        aria-label="Messages sent"
        aria-valuemin={0}
        aria-valuemax={counts.recipients}
        aria-valuenow={counts.sent}
        aria-valuetext={progressText(counts)}
      >
        {SECTIONS.map(({ key, label, color }) =>
          counts[key] > 0 ? (
            <Progress.Section key={key} value={share(counts[key])} color={color} withAria={false} title={`${label}: ${formatCount(counts[key])}`} />
          ) : null,
        )}
      </Progress.Root>

      <SimpleGrid cols={{ base: 3, lg: 9 }} spacing="xs" role="list" aria-label="Message counts">
        <Count label="Recipients" value={counts.recipients} />
        <Count label="Sent" value={counts.sent} hint="submitted, delivered or failed" />
        {SECTIONS.map(({ key, label, color }) => (
          <Count key={key} label={label} value={counts[key]} color={color} />
        ))}
        <Count
          label="Clicks"
          value={counts.clicks}
          hint="clicks by people; link previews fetched by chat apps are counted apart"
          beside={`${formatCount(counts.botClicks)} by bots`}
        />
        <Count label="Opt-outs" value={counts.optOuts} hint="numbers that opted out while this campaign was the last they received" />
      </SimpleGrid>

      {summary.in_doubt > 0 && <InDoubtNote count={summary.in_doubt} />}

      {sending && (
        <Group gap="xl" role="group" aria-label="Send rate">
          <Text size="sm">{rateLine(sendRate, summary.held_for_quiet_hours)}</Text>
          {plan && <PlanLine plan={plan} />}
        </Group>
      )}
    </Stack>
  );
}

/**
 * The send rate in words. Messages held for quiet hours (in their recipients' zones) are said to be
 * held, not "Sending 0 messages a second": "Sending 3 messages a second · held for quiet hours (2 people)".
 */
export function rateLine(sendRate: number | null, held: number): string {
  const heldLine = held > 0 ? `held for quiet hours (${formatCount(held)} ${held === 1 ? 'person' : 'people'})` : '';
  if (held > 0 && !(sendRate !== null && sendRate > 0)) return `Nothing to send now: ${heldLine}`;
  const rate = sendRate === null ? 'Measuring the send rate…' : `Sending ${formatRate(sendRate)} messages a second`;
  return held > 0 ? `${rate} · ${heldLine}` : rate;
}

/** Messages whose hand-over was interrupted: said plainly, because nobody can tell whether they went. */
function InDoubtNote({ count }: { count: number }) {
  const messages = `${formatCount(count)} ${count === 1 ? 'message was' : 'messages were'}`;
  return (
    <Alert variant="light" color="orange" title="Some messages may or may not have gone" role="note">
      {messages} interrupted on the way to the carrier (a restart or a lost connection), so Herald cannot tell whether they reached it. As the server is set up,
      they were either marked failed with the reason “in_doubt” (see the delivery report) or sent again.
    </Alert>
  );
}

function Count({ label, value, color, hint, beside }: { label: string; value: number; color?: string; hint?: string; beside?: string }) {
  return (
    // A column with the number at the foot, so numbers line up when a label wraps.
    <Paper
      withBorder
      radius="md"
      px="sm"
      py={6}
      display="flex"
      style={{ flexDirection: 'column', justifyContent: 'space-between' }}
      role="listitem"
      aria-label={`${label}: ${formatCount(value)}${beside ? ` (${beside})` : ''}`}
      title={hint}
    >
      <Group gap={6} wrap="nowrap">
        {color && <ColorSwatch color={`var(--mantine-color-${color.replace('.', '-')})`} size={10} withShadow={false} aria-hidden />}
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          {label}
        </Text>
      </Group>
      <Group gap={6} align="baseline" wrap="wrap">
        <Text size="lg" fw={700}>
          {formatCount(value)}
        </Text>
        {beside && (
          <Text size="xs" c="dimmed">
            {beside}
          </Text>
        )}
      </Group>
    </Paper>
  );
}

/** "Planned by now: 2,400 · sent: 2,340 — 60 behind the plan (the plan averages 0.4 a second)". */
function PlanLine({ plan }: { plan: PlanComparison }) {
  const gap = formatCount(Math.abs(plan.difference));
  const standing = plan.standing === 'on plan' ? 'on plan' : plan.standing === 'ahead' ? `${gap} ahead of the plan` : `${gap} behind the plan`;
  return (
    <Box>
      <Text size="sm" span>
        Planned by now: {formatCount(plan.planned)} · sent: {formatCount(plan.sent)} —{' '}
      </Text>
      <Text size="sm" span fw={600} c={STANDING_COLOR[plan.standing]}>
        {standing}
      </Text>
      <Text size="sm" span c="dimmed">
        {' '}
        (the plan averages {formatRate(plan.plannedRate)} a second)
      </Text>
    </Box>
  );
}
