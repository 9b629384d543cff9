import { Box, ColorSwatch, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { OverviewDay } from '../../api/gen/types.gen';
import { formatCount, formatDay } from './overview-format';
import { describeSendsChart, sendsChart, type ChartBar } from './sends-chart-data';

const CHART_HEIGHT = 160;
const SENT_COLOR = 'var(--mantine-color-indigo-3)';
const DELIVERED_COLOR = 'var(--mantine-color-teal-7)';
const LINE = '1px solid var(--mantine-color-default-border)';
const GRID_LINE = '1px dashed var(--mantine-color-default-border)';

const heightOf = (count: number, scale: number) => `${(count / scale) * 100}%`;

function barTitle(bar: ChartBar): string {
  return `${bar.label}: ${formatCount(bar.sent)} sent, ${formatCount(bar.delivered)} delivered, ${formatCount(bar.failed)} failed`;
}

/** A bar of messages sent, with the delivered ones drawn narrower in front of it. */
function Bar({ bar, scale }: { bar: ChartBar; scale: number }) {
  return (
    // The slot takes its share of the width (so the days line up with the axis); the bars at most 40 px of it.
    <Box title={barTitle(bar)} h="100%" style={{ flex: 1, minWidth: 1, display: 'flex', justifyContent: 'center' }}>
      <Box pos="relative" h="100%" w="100%" maw={40}>
        <Box
          pos="absolute"
          bottom={0}
          left={0}
          right={0}
          h={heightOf(bar.sent, scale)}
          bg={SENT_COLOR}
          style={{ minHeight: bar.sent > 0 ? 2 : 0, borderRadius: '2px 2px 0 0' }}
        />
        <Box
          pos="absolute"
          bottom={0}
          left="20%"
          right="20%"
          h={heightOf(bar.delivered, scale)}
          bg={DELIVERED_COLOR}
          style={{ minWidth: 1, minHeight: bar.delivered > 0 ? 2 : 0, borderRadius: '2px 2px 0 0' }}
        />
      </Box>
    </Box>
  );
}

const LABEL_WIDTH = '7em';

/** A day under its bar's centre (`centre`: 0–1 of the plot's width), kept inside the plot at both ends. */
function AxisLabel({ centre, children }: { centre: number; children: string }) {
  return (
    <Text
      size="xs"
      c="dimmed"
      ta="center"
      pos="absolute"
      top={0}
      w={LABEL_WIDTH}
      style={{ whiteSpace: 'nowrap', left: `clamp(0px, calc(${centre * 100}% - ${LABEL_WIDTH} / 2), calc(100% - ${LABEL_WIDTH}))` }}
    >
      {children}
    </Text>
  );
}

function Legend() {
  return (
    <Group gap="md" aria-hidden>
      {[
        { label: 'Sent', color: SENT_COLOR },
        { label: 'Delivered', color: DELIVERED_COLOR },
      ].map(({ label, color }) => (
        <Group key={label} gap={6} wrap="nowrap">
          <ColorSwatch color={color} size={12} radius="sm" withShadow={false} />
          <Text size="xs">{label}</Text>
        </Group>
      ))}
    </Group>
  );
}

/**
 * Messages sent and delivered per day (per week over long periods), drawn with plain boxes: the
 * picture is labelled with a sentence, and a hidden table gives screen readers every bar's numbers.
 */
export function SendsChart({ days }: { days: readonly OverviewDay[] }) {
  const chart = sendsChart(days);
  const { bars, scale, unit } = chart;
  if (bars.every((bar) => bar.sent === 0 && bar.delivered === 0)) {
    return (
      <Text size="sm" c="dimmed">
        Nothing was sent in this period: each day’s messages sent and delivered are drawn here once campaigns send.
      </Text>
    );
  }
  const summary = describeSendsChart(chart);
  const first = bars[0]!;
  const middle = bars[Math.floor((bars.length - 1) / 2)]!;
  const last = bars.at(-1)!;
  const axisLabels = bars.length > 2 ? [first, middle, last] : bars.length > 1 ? [first, last] : [first];
  // Messages come whole: the half-way mark only where it is a whole number (not 2.5 of 5).
  const ticks = Number.isInteger(scale / 2) ? [scale, scale / 2, 0] : [scale, 0];
  // Over a new year the axis needs the years to say which 3 Jan it means.
  const withYear = first.start.slice(0, 4) !== last.start.slice(0, 4);

  return (
    <Stack gap="xs">
      <Legend />
      {/* Two columns, the scale and the plot; the days go under the plot alone. */}
      <Box role="img" aria-label={summary} style={{ display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', rowGap: 4 }}>
        <Stack justify="space-between" h={CHART_HEIGHT} pr={6} ta="right" aria-hidden>
          {ticks.map((tick) => (
            <Text key={tick} size="xs" c="dimmed" lh={1}>
              {formatCount(tick)}
            </Text>
          ))}
        </Stack>
        <Box
          pos="relative"
          h={CHART_HEIGHT}
          px={2}
          style={{ display: 'flex', alignItems: 'flex-end', gap: bars.length > 45 ? 1 : 3, borderBottom: LINE, borderLeft: LINE }}
        >
          {/* Lines at the top of the scale and half-way, behind the bars. */}
          <Box pos="absolute" top={0} left={0} right={0} style={{ borderTop: GRID_LINE }} />
          {ticks.length === 3 && <Box pos="absolute" top="50%" left={0} right={0} style={{ borderTop: GRID_LINE }} />}
          {bars.map((bar) => (
            <Bar key={bar.start} bar={bar} scale={scale} />
          ))}
        </Box>
        <span />
        <Box pos="relative" h={18} aria-hidden>
          {axisLabels.map((bar) => (
            <AxisLabel key={bar.start} centre={(bars.indexOf(bar) + 0.5) / bars.length}>
              {formatDay(bar.start, withYear)}
            </AxisLabel>
          ))}
        </Box>
      </Box>
      {/* The label's sentence, for sighted readers too: the tallest bar says more with its number. */}
      <Text size="xs" c="dimmed" aria-hidden>
        {summary}.
      </Text>
      <VisuallyHidden>
        <table>
          <caption>Messages by {unit}</caption>
          <thead>
            <tr>
              <th scope="col">{unit === 'week' ? 'Week of' : 'Day'}</th>
              <th scope="col">Sent</th>
              <th scope="col">Delivered</th>
              <th scope="col">Failed</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.start}>
                <th scope="row">{bar.label.replace(/^Week of /, '')}</th>
                <td>{formatCount(bar.sent)}</td>
                <td>{formatCount(bar.delivered)}</td>
                <td>{formatCount(bar.failed)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </Stack>
  );
}
