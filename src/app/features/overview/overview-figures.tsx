import { Anchor, Paper, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { OverviewTotals } from '../../api/gen/types.gen';
import { formatCost, formatCount, formatRate, plural } from './overview-format';

interface Figure {
  label: string;
  value: string;
  /** A line under the number: what it counts, or the number behind a rate. */
  detail: ReactNode;
  /** A second line, when there is more to say (failovers under the messages sent). */
  more?: string;
}

/**
 * The opt-out rate beside the opt-outs it is made of: those that followed a campaign (by keyword),
 * over the messages delivered. Opt-outs made another way (the dashboard, an import, the API) are in
 * the count but not the rate, so the line says how many the rate counts rather than show "0%" beside
 * opt-outs that happened.
 */
function optOutDetail(totals: OverviewTotals): string {
  const rate = `opt-out rate ${formatRate(totals.opt_out_rate)}`;
  if (totals.campaign_opt_outs === totals.opt_outs) return rate;
  if (totals.campaign_opt_outs === 0) return 'none after a campaign';
  return `${rate} (${formatCount(totals.campaign_opt_outs)} after a campaign)`;
}

/**
 * The period's totals as figures, in the order a campaign's messages go: sent, delivered, failed, then
 * what people did. Messages never sent (stopped, expired, opted out) are not failures: they are named
 * beside what was sent, not under Failed.
 */
export function figuresOf(totals: OverviewTotals, teamSettingsHref: string): Figure[] {
  return [
    {
      label: 'Messages sent',
      value: formatCount(totals.sent),
      detail: totals.unsent > 0 ? `handed to the carrier; ${formatCount(totals.unsent)} never sent` : 'handed to the carrier',
      // Only for a team with SMS connections (the API leaves it out otherwise).
      more: totals.failovers === undefined ? undefined : `${formatCount(totals.failovers)} failed over to another connection`,
    },
    { label: 'Delivered', value: formatRate(totals.delivered_rate), detail: `${formatCount(totals.delivered)} delivered` },
    { label: 'Failed', value: formatCount(totals.failed), detail: 'refused or undelivered' },
    {
      label: 'Unique human clicks',
      value: formatCount(totals.unique_human_clicks),
      detail: `click rate ${formatRate(totals.click_rate)}`,
    },
    { label: 'Opt-outs', value: formatCount(totals.opt_outs), detail: optOutDetail(totals) },
    { label: 'Inbound messages', value: formatCount(totals.inbound_messages), detail: 'replies and keywords received' },
    { label: 'SMS parts', value: formatCount(totals.sms_parts), detail: 'a long message is several' },
    {
      label: 'Estimated cost',
      value: formatCost(totals.estimated_cost, totals.currency),
      detail:
        totals.estimated_cost === null ? (
          <Anchor component={Link} to={teamSettingsHref} size="xs">
            Set a price in team settings
          </Anchor>
        ) : (
          `${plural(totals.sms_parts, 'part', 'parts')} at the team’s price`
        ),
    },
    // Only for a team that reports orders (the API leaves the revenue out otherwise).
    ...(totals.revenue === undefined
      ? []
      : [
          {
            label: 'Revenue',
            value: formatCost(totals.revenue, totals.currency),
            detail: `${plural(totals.orders ?? 0, 'order', 'orders')} credited to campaigns`,
            more: otherCurrencies(totals.revenue_other ?? []),
          },
        ]),
  ];
}

/** Orders in other currencies than the team's, written apart, never converted: "also £15.50 (1 order)". */
export function otherCurrencies(other: ReadonlyArray<{ currency: string; value: number; orders: number }>): string | undefined {
  if (other.length === 0) return undefined;
  return `also ${other.map((row) => `${formatCost(row.value, row.currency)} (${plural(row.orders, 'order', 'orders')})`).join(', ')}`;
}

/**
 * One tile a figure, as a description list (each label names its number for screen readers too);
 * four across on a wide screen, two on a phone. No responsive style props inside the list: Mantine
 * writes those as <style> elements, which a <dl> may not hold.
 */
export function OverviewFigures({ totals, teamSettingsHref }: { totals: OverviewTotals; teamSettingsHref: string }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 2, md: 4 }} spacing={{ base: 'xs', sm: 'md' }} m={0}>
      {figuresOf(totals, teamSettingsHref).map(({ label, value, detail, more }) => (
        <Paper key={label} withBorder radius="md" px="md" py="sm">
          <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
            {label}
          </Text>
          <Text component="dd" m={0} fz={26} fw={700} lh={1.25} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {value}
          </Text>
          <Text component="dd" m={0} size="xs" c="dimmed">
            {detail}
          </Text>
          {more && (
            <Text component="dd" m={0} size="xs" c="dimmed">
              {more}
            </Text>
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}
