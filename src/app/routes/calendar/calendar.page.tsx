import { Anchor, Badge, Button, Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { listCampaigns } from '../../api/gen/sdk.gen';
import type { Campaign } from '../../api/gen/types.gen';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { addDays, addMonths, visibleDays, weekStart } from '../../features/calendar/calendar-days';
import { formatDay, formatTimestamp, plural } from '../../lib/format';
import { serviceTimestamp } from '../../lib/service-zone';
import { paths } from '../../paths';

type View = 'month' | 'week';
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** Scheduled, sending and sent; drafts are listed apart. */
function stateOf(campaign: Campaign): { label: string; color: string } {
  if (campaign.status === 1) return { label: 'Sending', color: 'blue' };
  if (campaign.status === 2) return { label: 'Sent', color: 'teal' };
  return { label: 'Scheduled', color: 'gray' };
}

function CampaignLink({ campaign }: { campaign: Campaign }) {
  const state = stateOf(campaign);
  return (
    <Group gap={4} wrap="nowrap" miw={0}>
      <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
        {campaign.scheduled_send_date.slice(11, 16)}
      </Text>
      <Anchor component={Link} to={paths.campaigns.detail.getHref(campaign.uuid)} size="xs" truncate="end" miw={0}>
        {campaign.name}
      </Anchor>
      <VisuallyHidden>({state.label})</VisuallyHidden>
      <Badge size="xs" variant="light" color={state.color} aria-hidden style={{ flex: 'none' }}>
        {state.label}
      </Badge>
    </Group>
  );
}

/** A day's name for screen readers: its date and how many campaigns it has. */
const dayLabel = (day: string, onDay: Campaign[]) => `${formatDay(day, true)}: ${plural(onDay.length, 'campaign', 'campaigns')}`;

/** On a phone: the visible days that have campaigns (and today), each with its campaigns, as a list. */
function DayList({ days, today, title, view }: { days: Array<{ day: string; onDay: Campaign[] }>; today: string; title: string; view: View }) {
  const shown = days.filter(({ day, onDay }) => onDay.length > 0 || day === today);
  if (shown.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No campaign is planned or sent in this {view}.
      </Text>
    );
  return (
    <Stack gap={6} role="list" aria-label={`Campaigns, ${title}`}>
      {shown.map(({ day, onDay }) => (
        <Paper
          key={day}
          withBorder
          p="xs"
          radius="sm"
          role="listitem"
          aria-label={dayLabel(day, onDay)}
          bg={day === today ? 'var(--mantine-primary-color-light)' : undefined}
        >
          <Text size="sm" fw={day === today ? 700 : 600} mb={4}>
            {formatDay(day, true)}
            {day === today ? ' (today)' : ''}
          </Text>
          {onDay.length === 0 ? (
            <Text size="xs" c="dimmed">
              Nothing planned today.
            </Text>
          ) : (
            <Stack gap={4}>
              {onDay.map((campaign) => (
                <CampaignLink key={campaign.uuid} campaign={campaign} />
              ))}
            </Stack>
          )}
        </Paper>
      ))}
    </Stack>
  );
}

/** The campaigns of the visible days by their scheduled send date, in the service zone as every page shows times. */
function CalendarBody({ timeZone }: { timeZone: string }) {
  const today = serviceTimestamp(timeZone).slice(0, 10);
  const [view, setView] = useState<View>('month');
  const [anchor, setAnchor] = useState(today);
  const days = visibleDays(anchor, view);
  const from = `${days[0]} 00:00:00`;
  const to = `${addDays(days[days.length - 1]!, 1)} 00:00:00`;
  const campaigns = useQuery({
    queryKey: ['campaigns', 'list', 'calendar', from, to],
    queryFn: async ({ signal }) =>
      (await listCampaigns({ query: { scheduled_from: from, scheduled_to: to, sort: 'scheduled_send_date', per_page: 100 }, signal, throwOnError: true })).data,
  });
  const move = (step: number) => setAnchor(view === 'month' ? addMonths(anchor, step) : addDays(weekStart(anchor), 7 * step));
  const all = campaigns.data?.data ?? [];
  const scheduled = all.filter((campaign) => !campaign.is_draft);
  const drafts = all.filter((campaign) => campaign.is_draft);
  const byDay = days.map((day) => ({ day, onDay: scheduled.filter((campaign) => campaign.scheduled_send_date.startsWith(day)) }));
  // A phone has no room for seven columns: the days with campaigns, one under another.
  const phone = useMediaQuery('(max-width: 47.99em)');
  const title = view === 'month' ? formatDay(`${anchor.slice(0, 7)}-01`, true).replace(/^1 /, '') : `Week of ${formatDay(weekStart(anchor), true)}`;

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => move(-1)} leftSection={<IconChevronLeft size={14} />} aria-label={`Previous ${view}`}>
            Previous
          </Button>
          <Button variant="default" size="xs" onClick={() => setAnchor(today)}>
            Today
          </Button>
          <Button variant="default" size="xs" onClick={() => move(1)} rightSection={<IconChevronRight size={14} />} aria-label={`Next ${view}`}>
            Next
          </Button>
          <Title order={2} size="h4" aria-live="polite">
            {title}
          </Title>
        </Group>
        <SegmentedControl
          size="xs"
          value={view}
          onChange={(value) => setView(value as View)}
          data={[
            { value: 'month', label: 'Month' },
            { value: 'week', label: 'Week' },
          ]}
          aria-label="View"
        />
      </Group>
      {campaigns.error ? (
        <ErrorState title="The calendar could not be loaded" error={campaigns.error} onRetry={() => void campaigns.refetch()} />
      ) : phone ? (
        <DayList days={byDay} today={today} title={title} view={view} />
      ) : (
        <div style={{ overflowX: 'auto' }}>
          <SimpleGrid cols={7} spacing={4} miw={640} mb={4} aria-hidden>
            {WEEKDAYS.map((weekday) => (
              <Text key={weekday} size="xs" fw={600} c="dimmed" ta="center">
                {weekday}
              </Text>
            ))}
          </SimpleGrid>
          {/* A list of days (each named with its date and count), laid out as weeks. */}
          <SimpleGrid cols={7} spacing={4} verticalSpacing={4} miw={640} role="list" aria-label={`Campaigns, ${title}`}>
            {byDay.map(({ day, onDay }) => {
              const outside = view === 'month' && day.slice(0, 7) !== anchor.slice(0, 7);
              return (
                <Paper
                  key={day}
                  withBorder
                  p={6}
                  radius="sm"
                  mih={view === 'week' ? 200 : 96}
                  role="listitem"
                  aria-label={dayLabel(day, onDay)}
                  // A day of another month is shaded, not faded: faded text fails contrast in the dark scheme.
                  bg={day === today ? 'var(--mantine-primary-color-light)' : outside ? 'var(--mantine-color-default-hover)' : undefined}
                  style={{ minWidth: 0 }}
                >
                  <Text size="xs" fw={day === today ? 700 : 500} mb={4}>
                    {formatDay(day)}
                  </Text>
                  <Stack gap={2}>
                    {onDay.map((campaign) => (
                      <CampaignLink key={campaign.uuid} campaign={campaign} />
                    ))}
                  </Stack>
                </Paper>
              );
            })}
          </SimpleGrid>
        </div>
      )}
      {campaigns.isPending && <Skeleton height={24} radius="sm" />}
      <Paper withBorder p="md" radius="md" role="region" aria-label="Drafts">
        <Title order={2} size="h5" mb="xs">
          Drafts in this {view}
        </Title>
        {drafts.length === 0 ? (
          <Text size="sm" c="dimmed">
            No draft has a send date in this {view}.
          </Text>
        ) : (
          <Stack gap={4}>
            {drafts.map((draft) => (
              <Group key={draft.uuid} gap="xs">
                <Anchor component={Link} to={paths.campaigns.detail.getHref(draft.uuid)} size="sm">
                  {draft.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {formatTimestamp(draft.scheduled_send_date)}
                </Text>
              </Group>
            ))}
          </Stack>
        )}
      </Paper>
      {(campaigns.data?.meta.total ?? 0) > all.length && (
        <Text size="xs" c="dimmed">
          Showing the first {all.length} campaigns of this {view}.
        </Text>
      )}
    </Stack>
  );
}

export default function CalendarPage() {
  const me = useQuery(currentUserQueries.me());
  return (
    <>
      <PageHeader title="Calendar" description="Scheduled, sending and sent campaigns by their send date (service time); drafts listed apart." />
      {me.data ? <CalendarBody timeZone={me.data.app_timezone} /> : <Skeleton height={320} radius="md" />}
    </>
  );
}
