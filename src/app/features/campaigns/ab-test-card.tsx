import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconTrophy } from '@tabler/icons-react';
import type { Campaign } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { formatCount, formatMoney, formatNumber, formatPercent, formatPerRecipient, formatTimestamp, plural } from '../../lib/format';
import { usePickAbTestWinner } from './campaign-mutations';

type AbTest = NonNullable<Campaign['ab_test']>;

const METRICS: Record<AbTest['metric'], string> = {
  human_click_rate: 'human click rate',
  conversion_rate: 'conversion rate',
  revenue_per_recipient: 'revenue per recipient',
};

/** An amount in the team's currency when the page knows it (the summary names it once the team has orders). */
const money = (value: number, currency?: string) => (currency ? formatMoney(value, currency) : formatNumber(value, 2));
const metricValue = (metric: AbTest['metric'], value: number, currency?: string) =>
  metric === 'revenue_per_recipient' ? (currency ? formatPerRecipient(value, currency) : formatNumber(value, 2)) : formatPercent(value);

/** What the test says now: how it was decided, or how long is left. */
function statusLine(test: AbTest): string {
  if (test.status === 'decided') {
    if (test.decided_by === 'manual') return `${test.winner} was picked as the winner by hand on ${formatTimestamp(test.decided_at)}.`;
    if (test.decided_by === 'not_significant')
      return `The result was not significant: no variant reached a 90% probability of being best (the best had ${formatPercent(test.probability)}), so the first variant, ${test.winner}, won.`;
    return `${test.winner} won with a ${formatPercent(test.probability)} probability of being best (decided ${formatTimestamp(test.decided_at)}).`;
  }
  if (test.status === 'deciding') return 'The test window has passed: the winner is being decided.';
  return `Testing: ${formatNumber(test.sending_minutes, 1)} of ${formatCount(test.decide_after_minutes)} minutes of sending time counted. The rest of the audience gets the winner.`;
}

/**
 * A campaign's A/B test (docs/ab-tests.md): each variant's figures and probability of being best,
 * the winner or "not significant", and for editors, before the decision, a way to pick the winner.
 */
/** `currency`: the team's (the summary's), for the revenue figures; without it they are plain numbers. */
export function AbTestCard({ campaign, canEdit, currency }: { campaign: Campaign; canEdit: boolean; currency?: string }) {
  const pick = usePickAbTestWinner(campaign.uuid);
  const confirmPick = useConfirmedMutation(pick, (name: string) => ({
    title: `Pick ${name} as the winner?`,
    message: `The test ends now and the rest of the audience gets ${name}. This cannot be undone.`,
    confirmLabel: `Pick ${name}`,
    cancelLabel: 'Keep testing',
    color: 'blue',
    variables: name,
    success: `${name} is the winner: the rest of the audience gets it.`,
    failure: `${name} could not be picked as the winner`,
  }));
  const test = campaign.ab_test;
  if (!test) return null;
  const open = test.status !== 'decided' && campaign.status === 1 && !campaign.stopped_at;
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="ab-test-title">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4" id="ab-test-title">
          A/B test
        </Title>
        <Text size="sm" c="dimmed">
          {test.test_share}% of the audience · decided on the {METRICS[test.metric]} after {formatCount(test.decide_after_minutes)} minutes of sending
        </Text>
      </Group>
      <Alert color={test.decided_by === 'not_significant' ? 'yellow' : test.status === 'decided' ? 'teal' : 'blue'} variant="light" mb="md" role="status">
        {statusLine(test)}
      </Alert>
      <SimpleGrid cols={{ base: 1, sm: Math.min(test.results.length, 4) }} spacing="md">
        {test.results.map((result) => {
          const winner = test.winner === result.name;
          return (
            <Paper key={result.name} withBorder p="md" radius="md" aria-label={`Variant ${result.name}`}>
              <Stack gap={6}>
                <Group justify="space-between">
                  <Text fw={700}>{result.name}</Text>
                  {winner && (
                    <Badge color="teal" leftSection={<IconTrophy size={12} />}>
                      Winner
                    </Badge>
                  )}
                </Group>
                <Text size="xl" fw={700}>
                  {metricValue(test.metric, result.metric_value, currency)}
                </Text>
                <Text size="sm" c="dimmed">
                  {METRICS[test.metric]}
                </Text>
                <Text size="sm">
                  Probability of being best: <strong>{result.probability_best === null ? '—' : formatPercent(result.probability_best)}</strong>
                </Text>
                <Text size="sm">
                  {formatCount(result.recipients)} recipients · {formatCount(result.sent)} sent · {formatCount(result.delivered)} delivered
                </Text>
                <Text size="sm">
                  {plural(result.human_clicks, 'human click', 'human clicks')} · {plural(result.conversions, 'order', 'orders')} ·{' '}
                  {money(result.revenue, currency)} revenue
                </Text>
                {canEdit && open && (
                  <Button variant="light" size="xs" onClick={() => confirmPick(result.name)} loading={pick.isPending}>
                    Pick {result.name} as winner
                  </Button>
                )}
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt="sm">
        Probability of being best: Bayesian, from 20,000 Monte Carlo draws of each variant’s Beta posterior (a normal approximation of the mean for revenue per
        recipient); a variant wins on its own at 90% or more.
      </Text>
    </Paper>
  );
}
