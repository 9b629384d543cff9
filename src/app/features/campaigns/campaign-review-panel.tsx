import { Alert, Badge, Code, Group, List, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowsSplit, IconClock, IconMoon, IconUserCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { CampaignReview, FieldCoverage } from '../../../shared/contract';
import { formatCount, formatMoney, formatTimestamp, plural } from '../../lib/format';

const fmt = formatCount;

export function formatCost(cost: NonNullable<CampaignReview['cost']>): string {
  return formatMoney(cost.amount, cost.currency, { maximumFractionDigits: 4 });
}

/** Included − duplicates − excluded − opted out = total, as a small sum a person can check. */
function RecipientSum({ recipients }: { recipients: CampaignReview['recipients'] }) {
  const rows: [string, string][] = [
    ['In the included groups', fmt(recipients.included)],
    ['− in more than one group (counted once)', fmt(recipients.duplicates)],
    ['− in an excluded group', fmt(recipients.excluded)],
    ['− opted out', fmt(recipients.opted_out)],
  ];
  return (
    <Table aria-label="Recipients" withRowBorders={false} verticalSpacing={2} fz="sm">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th fw={400} scope="row">
              {label}
            </Table.Th>
            <Table.Td ta="right">{value}</Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Table.Th scope="row">= Recipients</Table.Th>
          <Table.Td ta="right" fw={700} data-testid="review-total">
            {fmt(recipients.total)}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

/** One `{{field}}` of the template and how the audience fills it; a blocking gap in red, with the fallback that fixes it. */
export function CoverageList({ coverage }: { coverage: readonly FieldCoverage[] }) {
  const gaps = coverage.filter((field) => !field.fallback && (field.missing > 0 || field.groups_without.length > 0));
  const conflicts = coverage.filter((field) => (field.conflicting ?? 0) > 0);
  if (coverage.length === 0) return null;
  return (
    <Stack gap="xs" role="region" aria-label="Personalisation">
      {conflicts.map((field) => (
        <Alert
          key={`conflict-${field.field}`}
          color="blue"
          variant="light"
          icon={<IconArrowsSplit size={18} />}
          title={`{{${field.field}}} differs between groups for ${plural(field.conflicting ?? 0, 'recipient', 'recipients')}`}
          role="note"
          p="sm"
        >
          <Text size="sm">
            Their included groups hold different values. Each gets the value of the group listed first under “Send to these groups”; change the order of the
            groups to choose another. An empty value never replaces a filled one.
          </Text>
        </Alert>
      ))}
      {gaps.length === 0 ? (
        <Text size="sm">Every personalised field is filled for every recipient{coverage.some((field) => field.fallback) ? ' or has a fallback' : ''}.</Text>
      ) : (
        gaps.map((field) => (
          <Alert
            key={field.field}
            color={field.blocking ? 'red' : 'yellow'}
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title={field.blocking ? `{{${field.field}}} blocks scheduling` : `{{${field.field}}} is missing for some recipients`}
            role={field.blocking ? 'alert' : 'note'}
            p="sm"
          >
            <Text size="sm">
              {field.missing > 0 && `${plural(field.missing, 'recipient has', 'recipients have')} no ${field.field}: they would get a gap. `}
              {field.groups_without.length > 0 && `No such field in ${field.groups_without.map((group) => group.name).join(', ')}. `}
              Add a fallback in the template, e.g. <Code>{`{{${field.field}|there}}`}</Code>.
            </Text>
          </Alert>
        ))
      )}
    </Stack>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" fw={500} component="div">
        {children}
      </Text>
    </div>
  );
}

/** Everything the review shows about a campaign before it is scheduled (CampaignReview), in reading order. */
export function CampaignReviewPanel({ review, timeZone }: { review: CampaignReview; timeZone: string }) {
  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="sm">
        <Title order={3} size="h5" mb={4}>
          Recipients
        </Title>
        <RecipientSum recipients={review.recipients} />
        {(review.recipients.conflicting ?? 0) > 0 && (
          <Text size="sm" mt={4} data-testid="review-conflicting">
            {plural(review.recipients.conflicting ?? 0, 'recipient is', 'recipients are')} in groups that hold different values for a field the message uses:
            the group listed first wins.
          </Text>
        )}
        {review.frequency_cap && <FrequencyCapNote cap={review.frequency_cap} capped={review.frequency_capped ?? 0} />}
      </Paper>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Fact label="SMS parts per message">
          {review.segments.min === review.segments.max
            ? fmt(review.segments.typical)
            : `${fmt(review.segments.min)} to ${fmt(review.segments.max)} (mostly ${fmt(review.segments.typical)})`}
        </Fact>
        <Fact label="SMS parts in all">{fmt(review.total_parts)}</Fact>
        {review.cost && <Fact label="Estimated cost">{formatCost(review.cost)}</Fact>}
        <Fact label="Starts">{formatTimestamp(review.starts_at)}</Fact>
        <Fact label="Finishes about">
          {formatTimestamp(review.finishes_at)}{' '}
          <Text span size="xs" c="dimmed">
            ({timeZone})
          </Text>
        </Fact>
      </SimpleGrid>
      {review.routing && <RoutingTable routing={review.routing} />}
      {review.local_time && <LocalTimeSpan span={review.local_time} />}
      {review.quiet_hours && <QuietHoursNote review={review} />}
      <div>
        <Title order={3} size="h5" mb={6}>
          Personalisation
        </Title>
        {review.coverage.length === 0 ? (
          <Text size="sm" c="dimmed">
            The message has no personalised fields.
          </Text>
        ) : (
          <CoverageList coverage={review.coverage} />
        )}
      </div>
      {review.approval_required && (
        <Alert color="blue" variant="light" icon={<IconUserCheck size={18} />} role="note" p="sm">
          Another admin must approve it before it starts (the team’s approval threshold).
        </Alert>
      )}
    </Stack>
  );
}

/** The team's frequency cap: how many recipients it would skip if the campaign were sent now. */
export function FrequencyCapNote({ cap, capped }: { cap: NonNullable<CampaignReview['frequency_cap']>; capped: number }) {
  const rule = `${plural(cap.messages, 'marketing message', 'marketing messages')} in ${plural(cap.days, 'day', 'days')}`;
  return (
    <Text size="sm" mt={4} data-testid="review-frequency-capped">
      {capped === 0
        ? `The team’s frequency cap (${rule}) skips no recipient if it is sent now.`
        : `${plural(capped, 'recipient has', 'recipients have')} already had the team’s frequency cap (${rule}): if it is sent now, ${capped === 1 ? 'their message is' : 'their messages are'} not sent (unsent: frequency cap).`}
    </Text>
  );
}

/**
 * A campaign sent at each recipient's local time: the span from the first zone's send to the last
 * one's, and each zone of the audience with its recipients and when they get it (those after the
 * expiry never do).
 */
export function LocalTimeSpan({ span }: { span: NonNullable<CampaignReview['local_time']> }) {
  return (
    <Paper withBorder radius="md" p="sm" role="region" aria-label="Local time span">
      <Group gap="xs" mb={4}>
        <IconClock size={16} aria-hidden />
        <Text size="sm" fw={600}>
          At {span.send_time.slice(11, 16)} in each recipient’s time zone
        </Text>
        <Text size="xs" c="dimmed">
          {span.first_at ? `from ${formatTimestamp(span.first_at)} to ${formatTimestamp(span.last_at)}` : 'no zone before the expiry'}
        </Text>
      </Group>
      <Table fz="sm" verticalSpacing={4} aria-label="Send time per zone">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Zone</Table.Th>
            <Table.Th ta="right">Recipients</Table.Th>
            <Table.Th>Sends at</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {span.zones.map((zone) => (
            <Table.Tr key={zone.zone}>
              <Table.Td>{zone.zone}</Table.Td>
              <Table.Td ta="right">{formatCount(zone.recipients)}</Table.Td>
              <Table.Td>
                {formatTimestamp(zone.send_at)}
                {zone.after_expiry && (
                  <Badge ml="xs" size="sm" variant="light" color="red">
                    after the expiry: not sent
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/**
 * The team's quiet hours, and for each zone of the audience that they hold while it sends (each
 * recipient's own zone, as the engine holds them) its recipients and quiet periods.
 */
export function QuietHoursNote({ review }: { review: Pick<CampaignReview, 'quiet_hours' | 'quiet_zones'> }) {
  if (!review.quiet_hours) return null;
  const { start, end, days } = review.quiet_hours;
  return (
    <Paper withBorder radius="md" p="sm" role="region" aria-label="Quiet hours">
      <Group gap="xs" mb={4}>
        <IconMoon size={16} aria-hidden />
        <Text size="sm" fw={600}>
          Quiet hours {start}–{end}
        </Text>
        <Badge variant="light" color="gray" size="sm">
          {days.length === 7 ? 'every day' : days.join(', ')}
        </Badge>
        <Text size="xs" c="dimmed">
          in each recipient’s own time zone
        </Text>
      </Group>
      {review.quiet_zones.length === 0 ? (
        <Text size="sm" c="dimmed">
          None falls while it sends, in any recipient’s time zone.
        </Text>
      ) : (
        <List size="sm" spacing={4} aria-label="Quiet periods while it sends">
          {review.quiet_zones.map((zone) => (
            <List.Item key={zone.zone}>
              <Text span size="sm" fw={600}>
                {zone.zone}
              </Text>{' '}
              ({plural(zone.recipients, 'recipient', 'recipients')}){zone.held_at_start ? ', in quiet hours when it starts' : ''}: nothing is sent to them{' '}
              {zone.periods.map((period) => `${formatTimestamp(period.start_at)} – ${formatTimestamp(period.end_at)}`).join(', ')}
            </List.Item>
          ))}
        </List>
      )}
    </Paper>
  );
}

/** Where the messages are expected to go, per SMS connection of the team's routes, and what they should cost. */
export function RoutingTable({ routing }: { routing: NonNullable<CampaignReview['routing']> }) {
  return (
    <Paper withBorder radius="md" p="sm" role="region" aria-label="Connections">
      <Title order={3} size="h5" mb={4}>
        Connections
      </Title>
      {routing.connections.length > 0 && (
        <Table.ScrollContainer minWidth={320}>
          <Table aria-label="Messages per connection" verticalSpacing={4} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Connection</Table.Th>
                <Table.Th ta="right">Messages</Table.Th>
                <Table.Th ta="right">Estimated cost</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {routing.connections.map((line) => (
                <Table.Tr key={line.uuid}>
                  <Table.Td>{line.name}</Table.Td>
                  <Table.Td ta="right">{fmt(line.messages)}</Table.Td>
                  <Table.Td ta="right">{line.cost ? formatCost(line.cost) : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {routing.no_route > 0 && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="note" p="sm" mt="xs" title="No route">
          {plural(routing.no_route, 'recipient has', 'recipients have')} no route for their country: they will fail (no_route). Add a rule for their countries,
          or one for any country (*), under Sending.
        </Alert>
      )}
      <Text size="xs" c="dimmed" mt={4}>
        Each message goes to the first enabled connection of its country’s route; failovers may move some to the next one.
      </Text>
    </Paper>
  );
}
