import { Box, Group, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ErrorState } from '../../components/error-state';
import { bucketClicks, type BucketUnit, type ClickBucket, type ClicksTimeline } from './clicks-timeline';
import { formatCount } from './report-format';
import { reportQueries } from './report-queries';

const CHART_HEIGHT = 140;
const UNIT_WORDS: Record<BucketUnit, string> = { hour: 'hour', day: 'day', week: 'week' };

interface Landmarks {
  first: ClickBucket;
  middle: ClickBucket;
  last: ClickBucket;
  busiest: ClickBucket;
}

/** The buckets a caption names; undefined without buckets. */
function landmarksOf(buckets: readonly ClickBucket[]): Landmarks | undefined {
  const [first] = buckets;
  const last = buckets.at(-1);
  const middle = buckets[Math.floor((buckets.length - 1) / 2)];
  if (!first || !last || !middle) return undefined;
  const busiest = buckets.reduce((best, bucket) => (bucket.count > best.count ? bucket : best), first);
  return { first, middle, last, busiest };
}

function describe(unit: BucketUnit, { first, last, busiest }: Landmarks, clicks: number): string {
  const when =
    unit === 'week' ? `in the week of ${busiest.label.replace(/^Week of /, '')}` : unit === 'day' ? `on ${busiest.label}` : `in the hour from ${busiest.label}`;
  const count = `${formatCount(clicks)} ${clicks === 1 ? 'click' : 'clicks'}`;
  if (first === last) return `${count}, ${clicks === 1 ? '' : 'all '}${when}`;
  return `${count} by ${UNIT_WORDS[unit]} from ${first.label} to ${last.label}; the most, ${formatCount(busiest.count)}, ${when}`;
}

/** Bars of clicks per hour, day or week; a hidden table gives screen readers every bar's number. */
function Bars({ timeline, clicks }: { timeline: ClicksTimeline; clicks: number }) {
  const { buckets, unit } = timeline;
  const landmarks = landmarksOf(buckets);
  if (!landmarks) return null;
  const { first, middle, last } = landmarks;
  const highest = Math.max(1, ...buckets.map((bucket) => bucket.count));
  return (
    <>
      <Box role="img" aria-label={describe(unit, landmarks, clicks)}>
        <Group gap={0} align="stretch" wrap="nowrap">
          <Stack justify="space-between" h={CHART_HEIGHT} pr={6} aria-hidden>
            <Text size="xs" c="dimmed" lh={1}>
              {formatCount(highest)}
            </Text>
            <Text size="xs" c="dimmed" lh={1}>
              0
            </Text>
          </Stack>
          <Box
            h={CHART_HEIGHT}
            style={{
              flex: 1,
              display: 'flex',
              alignItems: 'flex-end',
              gap: buckets.length > 60 ? 1 : 3,
              borderBottom: '1px solid var(--mantine-color-default-border)',
              borderLeft: '1px solid var(--mantine-color-default-border)',
              paddingLeft: 2,
            }}
          >
            {buckets.map((bucket) => (
              <Box
                key={bucket.start}
                title={`${bucket.label}: ${formatCount(bucket.count)}`}
                bg="var(--mantine-color-indigo-5)"
                style={{
                  flex: 1,
                  minWidth: 1,
                  maxWidth: 48,
                  height: `${(bucket.count / highest) * 100}%`,
                  minHeight: bucket.count > 0 ? 2 : 0,
                  borderRadius: '2px 2px 0 0',
                }}
              />
            ))}
          </Box>
        </Group>
        <Group justify="space-between" mt={4} pl={24} aria-hidden wrap="nowrap">
          <Text size="xs" c="dimmed">
            {first.label}
          </Text>
          {buckets.length > 2 && (
            <Text size="xs" c="dimmed">
              {middle.label}
            </Text>
          )}
          {buckets.length > 1 && (
            <Text size="xs" c="dimmed">
              {last.label}
            </Text>
          )}
        </Group>
      </Box>
      {/* The same sentence as the chart's label, for sighted readers: a lone bar says little by itself. */}
      <Text size="xs" c="dimmed" mt={6} aria-hidden>
        {describe(unit, landmarks, clicks)}.
      </Text>
      <VisuallyHidden>
        <table>
          <caption>Clicks by {UNIT_WORDS[unit]}</caption>
          <thead>
            <tr>
              <th scope="col">{unit === 'hour' ? 'Hour' : unit === 'day' ? 'Day' : 'Week'}</th>
              <th scope="col">Clicks</th>
            </tr>
          </thead>
          <tbody>
            {buckets.map((bucket) => (
              <tr key={bucket.start}>
                <td>{bucket.label}</td>
                <td>{formatCount(bucket.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </>
  );
}

/**
 * People's clicks over time (link previews by chat apps left out, as the counts leave them) from the
 * first pages of the clicks report; says so when the campaign had more. `counted`: the page's click
 * counter; the chart is read again whenever it moves, so both show the same clicks.
 */
export function ClicksOverTimeChart({ campaignUuid, counted }: { campaignUuid: string; counted: number | undefined }) {
  const clicks = useQuery({ ...reportQueries.clickTimes(campaignUuid, counted), enabled: counted !== undefined });
  const timeline = useMemo(() => (clicks.data ? bucketClicks(clicks.data.times) : undefined), [clicks.data]);

  if (clicks.isPending) return <Skeleton height={CHART_HEIGHT + 24} radius="md" />;
  if (clicks.isError) return <ErrorState title="The clicks could not be loaded." error={clicks.error} onRetry={() => void clicks.refetch()} />;
  if (!timeline || timeline.buckets.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No clicks yet: clicks on the message’s tracked links are counted here by hour or by day.
      </Text>
    );
  }
  const { read, total } = clicks.data;
  return (
    <Stack gap="xs">
      <Bars timeline={timeline} clicks={clicks.data.times.length} />
      {total > read && (
        <Text size="xs" c="dimmed">
          Only the first {formatCount(read)} of {formatCount(total)} clicks are drawn; the Clicks report below has every one.
        </Text>
      )}
    </Stack>
  );
}
