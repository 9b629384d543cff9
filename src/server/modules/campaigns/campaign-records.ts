import type { CampaignAudience } from '../../db/segment-sql';
import type { AbTest, Campaign } from '../../../shared/contract';
import { resultsOf } from './ab-results';
import type { Db } from '../../db/client';
import type { Conn } from '../../db/rows';
import type { AuthContext } from '../../http/auth';
import { NotFoundError } from '../../lib/errors';
import { formatTimestamp, type Clock } from '../../lib/time';
import { localStart } from '../../../shared/schedule/local-time';
import type { CampaignEventLog } from '../../observability/campaign-events';
import type { AuditTrail } from '../audit/audit-trail';
import type { AccountMailRepository } from '../account-mail/account-mail.repository';
import type { ContactGroupsRepository } from '../contact-groups/contact-groups.repository';
import type { RecipientsRepository } from '../contacts/contacts.repository';
import type { MembersRepository } from '../members/members.repository';
import type { SenderRule } from '../senders/senders.service';
import type { Suppressions } from '../suppressions/suppressions.service';
import type { TeamsRepository } from '../teams/teams.repository';
import type { TemplatesRepository } from '../templates/templates.repository';
import type { UsersRepository } from '../users/users.repository';
import type { CampaignRecord, CampaignsRepository } from './campaigns.repository';
import type { CampaignReviewer } from './review';
import type { ReviewAudience, ReviewRepository } from './review.repository';
import type { SmsRoutesRepository } from '../sms-routes/sms-routes.repository';

/**
 * What the campaigns module's jobs (editing.ts, approvals.ts, test-sends.ts, reviewing.ts) are
 * built from; each function names the part it uses (`Pick<CampaignsDeps, …>`).
 */
export type CampaignsDeps = {
  db: Db;
  campaigns: CampaignsRepository;
  templates: Pick<TemplatesRepository, 'find'>;
  contactGroups: Pick<ContactGroupsRepository, 'idsByUuid'>;
  /**
   * Issue 35: the team's segment ids by uuid, and the live count of an audience with segments (its
   * groups and segments, the suppression list among the excluded groups; db/segment-sql.ts).
   */
  segments: {
    idsByUuid(teamId: number, uuids: string[]): Promise<Map<string, number>>;
    countAudience(teamId: number, audience: CampaignAudience): Promise<number>;
    /** The recipients of an audience with segments for the review: evaluated now, or a started campaign's fixed list (`fixedCampaignId`). */
    audienceOf(teamId: number, audience: CampaignAudience, fixedCampaignId?: number): Promise<ReviewAudience>;
  };
  recipients: Pick<RecipientsRepository, 'count'>;
  teams: Pick<TeamsRepository, 'settingsOf' | 'testNumbersOf'>;
  members: Pick<MembersRepository, 'admins'>;
  outbox: Pick<AccountMailRepository, 'enqueue'>;
  review: ReviewRepository;
  users: Pick<UsersRepository, 'findById'>;
  suppressions: Pick<Suppressions, 'listOf' | 'countByCampaign'>;
  /** Sample short links of a template's links (the templates service's). */
  linkSamples: (teamId: number, templateUuid: string) => Promise<Record<string, string>>;
  /** Which senders the caller may use (the senders module's). */
  senderRule: Pick<SenderRule, 'refusal' | 'adopt'>;
  clock: Clock;
  config: { appTimezone: string; defaultCountry: string; publicUrl: string; smsRateLimit: number };
  /** The log lines of a campaign paused, resumed or stopped by someone (never throws). */
  events?: CampaignEventLog;
  /** Each change is recorded in its own transaction (modules/audit/audit-trail.ts). */
  audit: Pick<AuditTrail, 'record'>;
  /** The team's routes and connections, for the review's per-connection estimate. */
  routing?: Pick<SmsRoutesRepository, 'rulesOf' | 'connectionsOf'>;
  /** The review of a campaign, built once from `review` and `linkSamples` (campaigns.service.ts). */
  reviewer: CampaignReviewer;
};

/** Status 1: sending. */
export const SENDING = 1;
export const LOCKED = 'The campaign is locked: its send time has passed or it is sending, so it can no longer be edited.';

/**
 * When a sending campaign inside one of its planned pauses resumes: the end of that pause, or of
 * the pauses that follow it without a gap. Null outside a pause (or when it is not sending).
 */
function pausedUntil(record: Pick<CampaignRecord, 'status' | 'stoppedAt' | 'pauses'>, now: Date): Date | null {
  if (record.status !== SENDING || record.stoppedAt) return null;
  let until: Date | null = null;
  const pauses = [...record.pauses].sort((a, b) => a.startAt.getTime() - b.startAt.getTime());
  for (const pause of pauses) {
    const from = until ?? now;
    if (pause.startAt <= from && pause.endAt > from) until = pause.endAt;
  }
  return until;
}

/** Locked once it sends or its send time has passed; a draft, and one waiting for approval or rejected, stays editable until it starts. */
export const isLocked = (record: CampaignRecord, now: Date) =>
  record.status !== 0 || (startOf(record) <= now.getTime() && !record.isDraft && record.approvalStatus !== 'pending' && record.approvalStatus !== 'rejected');

/** When it starts: its send date, or a local-time campaign's wall-clock time in the earliest zone (lifecycle.ts `startMomentOf`). */
export const startOf = (record: Pick<CampaignRecord, 'scheduledSendDate' | 'localSendTime'>): number =>
  record.localSendTime === null ? record.scheduledSendDate.getTime() : localStart(record.localSendTime);

/** A campaign as the API shows it. */
export function presentCampaign(deps: Pick<CampaignsDeps, 'clock' | 'config'>, record: CampaignRecord): Campaign {
  const zone = deps.config.appTimezone;
  return {
    uuid: record.uuid,
    team_uuid: record.teamUuid,
    name: record.name,
    sender: record.sender,
    scheduled_send_date: formatTimestamp(record.scheduledSendDate, zone),
    expiry_date: formatTimestamp(record.expiryDate, zone),
    status: record.status,
    throttled: record.throttled,
    included_contact_groups: record.included,
    included_segments: record.includedSegments,
    excluded_segments: record.excludedSegments,
    excluded_contact_groups: record.excluded,
    template_uuid: record.templateUuid,
    started_sending_at: formatTimestamp(record.startedSendingAt, zone),
    finished_sending_at: formatTimestamp(record.finishedSendingAt, zone),
    created_at: formatTimestamp(record.createdAt, zone),
    updated_at: formatTimestamp(record.updatedAt, zone),
    scheduled_finish_date: formatTimestamp(record.scheduledFinishDate, zone),
    manually_paused: record.manuallyPaused,
    pauses: record.pauses.map((pause) => ({
      uuid: pause.uuid,
      campaign_uuid: record.uuid,
      start_at: formatTimestamp(pause.startAt, zone),
      end_at: formatTimestamp(pause.endAt, zone),
      created_at: formatTimestamp(pause.createdAt, zone),
      updated_at: formatTimestamp(pause.updatedAt, zone),
    })),
    is_test: record.isTest,
    is_locked: isLocked(record, deps.clock.now()),
    approval: {
      status: record.approvalStatus,
      requested_by: record.approvalRequestedBy,
      requested_at: formatTimestamp(record.approvalRequestedAt, zone),
      decided_by: record.approvalDecidedBy,
      decided_at: formatTimestamp(record.approvalDecidedAt, zone),
      comment: record.approvalComment ?? '',
      recipients: record.approvalStatus === 'approved' ? record.approvalRecipients : null,
      notice: record.approvalNotice ?? '',
    },
    is_draft: record.isDraft,
    ignore_quiet_hours: record.ignoreQuietHours,
    local_time: record.localSendTime !== null,
    stopped_at: formatTimestamp(record.stoppedAt, zone),
    stopped_by: record.stoppedBy,
    expired_at: formatTimestamp(record.expiredAt, zone),
    paused_until: formatTimestamp(pausedUntil(record, deps.clock.now()), zone),
    variants: record.variants.map((variant) => ({ name: variant.name, template_uuid: variant.templateUuid, sender: variant.sender ?? '' })),
    ab_test: presentAbTest(record, zone),
  };
}

/** The A/B test as the API shows it (docs/ab-tests.md); null without variants. */
export function presentAbTest(record: CampaignRecord, zone: string): AbTest | null {
  const settings = record.abTest;
  if (!settings || record.variants.length === 0) return null;
  const decided = record.abWinner !== null;
  const windowOver = record.abWindowMs >= settings.decide_after_minutes * 60_000;
  return {
    ...settings,
    status: decided ? 'decided' : windowOver ? 'deciding' : 'testing',
    winner: decided ? (record.variants[record.abWinner!]?.name ?? null) : null,
    decided_by: record.abDecidedBy,
    probability: record.abProbability,
    decided_at: formatTimestamp(record.abDecidedAt, zone),
    sending_minutes: Math.floor(record.abWindowMs / 6_000) / 10,
    results: resultsOf(
      record.variants.map((variant) => variant.name),
      record.abFigures ?? [],
      settings,
      record.abSeed,
      record.abResults?.probabilities ?? null,
    ),
  };
}

/** The team's campaign (404 otherwise). */
export async function findCampaign(deps: Pick<CampaignsDeps, 'campaigns'>, auth: AuthContext, uuid: string): Promise<CampaignRecord> {
  const record = await deps.campaigns.find(auth.teamId, uuid);
  if (!record) throw new NotFoundError();
  return record;
}

/** The ids of the team's groups `uuids`, each once; a uuid that is not the team's adds an error on `field`. */
/** The team's segments named by `uuids`, in order; an unknown or another team's uuid is an error of `field`. */
export async function segmentIdsOf(deps: Pick<CampaignsDeps, 'segments'>, auth: AuthContext, uuids: string[], field: string, errors: Record<string, string[]>) {
  const unique = [...new Set(uuids.map((uuid) => uuid.toLowerCase()))];
  const ids = await deps.segments.idsByUuid(auth.teamId, unique);
  if (ids.size !== unique.length) errors[field] = [`The selected ${field.replace(/_/g, ' ')} is invalid.`];
  return unique.map((uuid) => ids.get(uuid)!);
}

export async function groupIdsOf(
  deps: Pick<CampaignsDeps, 'contactGroups'>,
  auth: AuthContext,
  uuids: string[],
  field: string,
  errors: Record<string, string[]>,
) {
  const unique = [...new Set(uuids.map((uuid) => uuid.toLowerCase()))];
  const ids = await deps.contactGroups.idsByUuid(auth.teamId, unique);
  if (ids.size !== unique.length) errors[field] = [`The selected ${field.replace(/_/g, ' ')} is invalid.`];
  return unique.map((uuid) => ids.get(uuid)!);
}

/**
 * Records a change of the campaign `uuid` in the transaction `tx` that makes it: the campaign as
 * the API showed it before (absent: the change made it) and shows it after (absent: deleted, or
 * the answer is not the campaign).
 */
export function recordCampaignChange(
  deps: Pick<CampaignsDeps, 'audit'>,
  tx: Conn,
  auth: AuthContext,
  change: { uuid: string; before?: Campaign; after?: Campaign },
): Promise<void> {
  return deps.audit.record(tx, auth, { resourceType: 'campaign', resourceUuid: change.uuid, before: change.before, after: change.after });
}
