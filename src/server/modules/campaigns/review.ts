import type { CampaignReview, FieldCoverage } from '../../../shared/contract';
import { localMoment } from '../../../shared/schedule/local-time';
import { quietPeriods, type QuietHours } from '../../../shared/schedule/quiet-hours';
import { fieldUses, measure, parseShorthands, renderTokens } from '../../../shared/sms';
import { capOf } from '../../engine/store/frequency-caps';
import { zoneOfNumber } from '../../lib/phone-zones';
import { formatTimestamp } from '../../lib/time';
import type { SmsRoutesRepository } from '../sms-routes/sms-routes.repository';
import type { ReviewAudience, ReviewRepository, FieldToken } from './review.repository';
import { routeEstimate } from './route-estimate';

/** What a review is of: a saved campaign, or a campaign input not written (the preview). */
export type ReviewSubject = {
  teamId: number;
  templateUuid: string;
  body: string;
  includedGroupIds: number[];
  excludedGroupIds: number[];
  optoutsId: number;
  send: Date;
  finish: Date | null;
  throttled: boolean;
  ignoreQuietHours: boolean;
  /** `local_time`: the wall-clock time each recipient's zone sends at (null otherwise), and the expiry its zones must reach first. */
  localSendTime?: string | null;
  expiry?: Date;
  /** The saved campaign, for its test sends. */
  campaignId?: number;
  /**
   * A campaign with segments (issue 35): its recipients, groups and segments together (live before
   * its start, the list fixed then after). The parts, cost, field coverage, zones and total are read
   * over them; the included groups' counts (duplicates, excluded, opted out) stay the groups'.
   */
  audience?: ReviewAudience;
};

export type ReviewSettings = {
  approvalThreshold: number | null;
  confirmThreshold: number;
  pricePerSegment: number | null;
  currency: string;
  quietHours: QuietHours | null;
  timeZone: string;
  /** The team's frequency cap (both null, or left out: none). */
  frequencyCapMessages?: number | null;
  frequencyCapDays?: number | null;
};

type Group = { id: number; uuid: string; name: string; headers: string[]; contacts: number };

/**
 * Each field of a body against the groups: the spellings its value has in their contacts (the
 * field itself, and any header that matches it ignoring case, as rendering matches), the groups
 * without it, and whether that blocks scheduling: no included group with contacts has it, and it has
 * no fallback. Empty groups say nothing about their fields, so they never block.
 */
export function fieldsAgainstGroups(body: string, groups: Group[]) {
  return fieldUses(body).map((use) => {
    const lower = use.name.toLowerCase();
    const spellings = [
      use.name,
      ...new Set(groups.flatMap((group) => group.headers.filter((header) => header.toLowerCase() === lower && header !== use.name))),
    ];
    const without = groups.filter((group) => !group.headers.some((header) => header.toLowerCase() === lower));
    const blocking = !use.fallback && without.length === groups.length && groups.some((group) => group.contacts > 0);
    return { ...use, spellings, without, blocking };
  });
}

/** The message the 422 gives for fields no group has (docs/interface.md: personalisation). */
export function blockingMessage(fields: Array<{ name: string }>, groups: Group[]): string {
  const names = fields.map((field) => `{{${field.name}}}`).join(', ');
  const known = [...new Set(groups.flatMap((group) => group.headers))];
  return `The template uses ${names}, which none of the included groups has (their fields: ${known.length > 0 ? known.join(', ') : 'none'}). Add a fallback, such as {{${fields[0]!.name}|there}}, correct the field name, or include groups that have it; a draft may be saved meanwhile.`;
}

/** Weighted min, median and max of segment counts. */
function spread(counts: Array<{ segments: number; n: number }>) {
  const sorted = counts.filter((c) => c.n > 0).sort((a, b) => a.segments - b.segments);
  const total = sorted.reduce((sum, c) => sum + c.n, 0);
  if (total === 0) return { min: 0, typical: 0, max: 0 };
  let seen = 0;
  let typical = sorted[0]!.segments;
  for (const c of sorted) {
    seen += c.n;
    if (seen * 2 >= total) {
      typical = c.segments;
      break;
    }
  }
  return { min: sorted[0]!.segments, typical, max: sorted[sorted.length - 1]!.segments };
}

/** When `count` messages at `perSecond` from `start` are out, skipping `quiet` periods. */
export function finishAfter(start: number, count: number, perSecond: number, quiet: Array<{ start: number; end: number }>): number {
  let left = Math.ceil(count / perSecond) * 1000;
  let at = start;
  for (const period of quiet) {
    if (period.end <= at) continue;
    if (period.start > at) {
      const open = period.start - at;
      if (open >= left) return at + left;
      left -= open;
    }
    at = Math.max(at, period.end);
  }
  return at + left;
}

/** Periods in order, those that overlap or touch made one. */
function mergedPeriods(periods: Array<{ start: number; end: number }>) {
  const merged: Array<{ start: number; end: number }> = [];
  for (const period of [...periods].sort((a, b) => a.start - b.start)) {
    const last = merged[merged.length - 1];
    if (last && period.start <= last.end) last.end = Math.max(last.end, period.end);
    else merged.push({ ...period });
  }
  return merged;
}

/** The SMS parts a body makes for each shape of the audience, rendered as the engine renders. */
function measuredShapes(
  tokens: ReturnType<typeof parseShorthands>,
  shapes: Array<{ n: number; fields: Record<string, unknown> }>,
  links: Record<string, string>,
) {
  return shapes.map((shape) => {
    const values = Object.fromEntries(Object.entries(shape.fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    return { segments: measure(renderTokens(tokens, { fields: values, links })).segments, n: shape.n };
  });
}

/** Each `{{field}}` of the body as SQL reads it, with the spellings the groups give it. */
function fieldTokensOf(body: string, fields: ReturnType<typeof fieldsAgainstGroups>): FieldToken[] {
  return parseShorthands(body).flatMap((token) => {
    if (token.kind !== 'field') return [];
    const field = fields.find((f) => f.name.toLowerCase() === token.name.toLowerCase())!;
    return [{ spellings: field.spellings, ...(token.fallback === undefined ? {} : { fallback: token.fallback }) }];
  });
}

/**
 * The range of SMS parts a body makes over the recipients of groups (the template editor's counter):
 * how many recipients, and the min, typical and max parts.
 */
export async function measureOverAudience(
  review: ReviewRepository,
  input: { body: string; includedGroupIds: number[]; excludedGroupIds: number[]; links: Record<string, string> },
) {
  const groups = await review.groups(input.includedGroupIds);
  const shapes = await review.shapes(input.includedGroupIds, input.excludedGroupIds, fieldTokensOf(input.body, fieldsAgainstGroups(input.body, groups)));
  const measured = measuredShapes(parseShorthands(input.body), shapes, input.links);
  return { recipients: measured.reduce((sum, shape) => sum + shape.n, 0), segments: spread(measured) };
}

export function createCampaignReview(deps: {
  review: ReviewRepository;
  /** The sample short links of a template's `::NAME::` (each as long as the real ones). */
  linkSamples: (teamId: number, templateUuid: string) => Promise<Record<string, string>>;
  now: () => Date;
  config: { appTimezone: string; smsRateLimit: number };
  /** The team's routes and connections, for the per-connection estimate (left out: no estimate). */
  routing?: Pick<SmsRoutesRepository, 'rulesOf' | 'connectionsOf'>;
}) {
  const zone = deps.config.appTimezone;
  return async function review(subject: ReviewSubject, settings: ReviewSettings): Promise<CampaignReview> {
    const excluded = [...subject.excludedGroupIds, subject.optoutsId];
    const groups = await deps.review.groups(subject.includedGroupIds);
    const fields = fieldsAgainstGroups(subject.body, groups);
    const tokens = parseShorthands(subject.body);
    const fieldTokens = fieldTokensOf(subject.body, fields);
    const quiet = settings.quietHours && !subject.ignoreQuietHours ? settings.quietHours : null;
    const routing = deps.routing ? Promise.all([deps.routing.connectionsOf(subject.teamId), deps.routing.rulesOf(subject.teamId)]) : Promise.resolve(null);
    const local = subject.localSendTime ?? null;
    // The audience by number prefix: for the quiet hours and local time of each zone, and the country of each route.
    const prefixes =
      quiet || local
        ? deps.review.prefixes(subject.includedGroupIds, excluded, subject.audience)
        : routing.then((team) => (team && team[0].length > 0 ? deps.review.prefixes(subject.includedGroupIds, excluded, subject.audience) : []));
    const cap = capOf(settings.frequencyCapMessages ?? null, settings.frequencyCapDays ?? null);
    const [groupCounts, shapes, missing, conflicts, links, tests, audience, capped] = await Promise.all([
      deps.review.recipientCounts(subject.includedGroupIds, subject.excludedGroupIds, subject.optoutsId),
      deps.review.shapes(subject.includedGroupIds, excluded, fieldTokens, subject.audience),
      deps.review.missing(
        subject.includedGroupIds,
        excluded,
        fields.map((field) => ({ spellings: field.spellings })),
        subject.audience,
      ),
      deps.review.conflicts(
        subject.includedGroupIds,
        excluded,
        fields.map((field) => field.name),
      ),
      deps.linkSamples(subject.teamId, subject.templateUuid),
      subject.campaignId === undefined ? Promise.resolve([]) : deps.review.testSends(subject.campaignId),
      prefixes,
      cap === null
        ? Promise.resolve(0)
        : deps.review.frequencyCapped(subject.teamId, cap, deps.now(), subject.includedGroupIds, excluded, subject.audience, subject.campaignId),
    ]);
    const team = await routing;

    // Each shape measured on one recipient of it, rendered as the engine renders.
    const measured = measuredShapes(tokens, shapes, links);
    const totalParts = measured.reduce((sum, shape) => sum + shape.segments * shape.n, 0);
    // With segments, who gets a message is the audience's count (its shapes cover each recipient once).
    const counts = subject.audience ? { ...groupCounts, total: shapes.reduce((sum, shape) => sum + shape.n, 0) } : groupCounts;

    const now = deps.now().getTime();
    // Quiet hours and local time apply in each recipient's own zone (as the engine holds them): the audience by zone.
    const byZone = new Map<string, number>();
    for (const row of quiet || local ? audience : []) {
      const recipientZone = zoneOfNumber(row.sample, settings.timeZone);
      byZone.set(recipientZone, (byZone.get(recipientZone) ?? 0) + row.n);
    }
    // A local-time campaign's zones each start at their own moment (those past the expiry never do).
    const expiry = subject.expiry?.getTime() ?? Infinity;
    const localZones = local
      ? [...byZone]
          .map(([name, recipients]) => ({ name, recipients, at: localMoment(local, name) }))
          .sort((a, b) => a.at - b.at || a.name.localeCompare(b.name))
      : [];
    const reached = localZones.filter((z) => z.at < expiry);
    const start = Math.max(reached.length > 0 ? reached[0]!.at : subject.send.getTime(), now);
    const throttledFinish = subject.throttled && subject.finish ? Math.max(subject.finish.getTime(), start) : null;
    const zones = [...byZone].map(([name, recipients]) => {
      const zoneStart = local ? Math.max(localMoment(local, name), now) : start;
      const periods = quiet ? quietPeriods(quiet, name, zoneStart, zoneStart + 30 * 86_400_000) : [];
      // When the zone's last recipient can go: at the gateway's rate, past its own quiet periods.
      return { name, recipients, periods, finish: throttledFinish ?? finishAfter(zoneStart, recipients, deps.config.smsRateLimit, periods) };
    });
    // The last message leaves when the gateway's rate allows and, in each zone, once its quiet periods let its recipients go.
    const finish =
      throttledFinish ??
      Math.max(
        local ? start : finishAfter(start, counts.total, deps.config.smsRateLimit, []),
        ...zones.filter((z) => !local || localMoment(local, z.name) < expiry).map((z) => z.finish),
      );
    const formatPeriod = (period: { start: number; end: number }) => ({
      start_at: formatTimestamp(new Date(period.start), zone),
      end_at: formatTimestamp(new Date(period.end), zone),
    });
    const quietZones = zones
      .map((z) => ({ ...z, periods: z.periods.filter((period) => period.start < z.finish) }))
      .filter((z) => z.periods.length > 0)
      .sort((a, b) => b.recipients - a.recipients || a.name.localeCompare(b.name));

    const coverage: FieldCoverage[] = fields.map((field, index) => ({
      field: field.name,
      fallback: field.fallback,
      missing: missing[index] ?? 0,
      groups_without: field.without.map((group) => ({ uuid: group.uuid, name: group.name })),
      conflicting: conflicts.fields[index] ?? 0,
      blocking: field.blocking,
    }));
    const threshold = settings.approvalThreshold;
    const routed =
      team &&
      routeEstimate({
        rules: team[1],
        connections: team[0],
        audience,
        partsPerMessage: counts.total > 0 ? totalParts / counts.total : 0,
        teamPrice: settings.pricePerSegment,
        currency: settings.currency,
      });
    return {
      recipients: {
        included: counts.included,
        duplicates: counts.included - counts.distinct,
        excluded: counts.excluded,
        opted_out: counts.opted_out,
        total: counts.total,
        conflicting: conflicts.total,
      },
      segments: spread(measured),
      total_parts: totalParts,
      cost:
        settings.pricePerSegment === null
          ? null
          : { amount: Math.round(totalParts * settings.pricePerSegment * 100_000) / 100_000, currency: settings.currency },
      ...(routed && { routing: routed }),
      starts_at: formatTimestamp(new Date(start), zone),
      finishes_at: formatTimestamp(new Date(finish), zone),
      ...(local && {
        local_time: {
          send_time: local,
          first_at: formatTimestamp(reached.length > 0 ? new Date(reached[0]!.at) : null, zone),
          last_at: formatTimestamp(reached.length > 0 ? new Date(reached[reached.length - 1]!.at) : null, zone),
          zones: localZones.map((z) => ({
            zone: z.name,
            recipients: z.recipients,
            send_at: formatTimestamp(new Date(z.at), zone),
            after_expiry: z.at >= expiry,
          })),
        },
      }),
      quiet_hours: quiet,
      quiet_periods: mergedPeriods(quietZones.flatMap((z) => z.periods)).map(formatPeriod),
      quiet_zones: quietZones.map((z) => ({
        zone: z.name,
        recipients: z.recipients,
        held_at_start: z.periods.some((period) => period.start <= start && start < period.end),
        periods: z.periods.map(formatPeriod),
      })),
      // With a cap: the recipients it would skip if the campaign were sent now (their messages unsent, `frequency_cap`).
      ...(cap && { frequency_cap: cap, frequency_capped: capped }),
      coverage,
      approval_required: threshold !== null && (threshold === 0 || counts.total >= threshold),
      confirm_threshold: settings.confirmThreshold,
      confirm_required: counts.total >= settings.confirmThreshold,
      test_sends: tests.map((test) => ({
        uuid: test.uuid,
        phone_number: test.phone,
        status: test.status,
        created_at: formatTimestamp(test.createdAt, zone),
      })),
    };
  };
}
export type CampaignReviewer = ReturnType<typeof createCampaignReview>;
