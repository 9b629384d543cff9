import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { arrayParam } from '../../db/arrays';
import { withoutPlans } from '../../db/plans';
import { firstRowOf, MomentSchema, oneRowOf, parseRows, rowsOf } from '../../db/rows';
import { countRecipientsOf, recipientsOf } from '../../db/audience';
import { audienceMembershipOf, audienceRowsOf, segmentGroupsOf, useSegmentSettings } from '../../db/segment-sql';
import { approvalHeldMail, heldNotice } from '../../lib/approval-mails';
import type { StartStore } from '../engine-store';
import { campaignLifecycle, LOCAL_START_LEAD_MS, startMomentOf } from '../../modules/campaigns/lifecycle';
import { suppressionListOf } from '../../modules/suppressions/suppressions.sql';
import { abTestSize } from '../../../shared/ab-test/split';

export type AudienceSizes = {
  /** Recipients written when a campaign that is not throttled starts: enough for its first batches at once. */
  first: number;
  /** Recipients written a statement as the engine extends a campaign's audience. */
  chunk: number;
  /** An audience is extended while fewer than this many written messages wait to be claimed. */
  ahead: number;
};
const SIZES: AudienceSizes = { first: 5_000, chunk: 25_000, ahead: 100_000 };
/** Key (with the campaign id) of the advisory lock one extender of an audience holds at a time. */
const AUDIENCE_LOCK = 16_022;
/** How long a campaign whose start failed is left before it is tried again (the failure is logged each time). */
const START_RETRY_MS = 60_000;

/** bigint[] columns: node-postgres parses their elements as text (its bigint parser is for single values). */
const AudienceGroupsRowSchema = z.object({ included: z.array(z.string()), excluded: z.array(z.string()) });
const WrittenRowSchema = z.object({ written: z.number(), last: z.string().nullable() });
const RestRowSchema = z.object({ written: z.number(), read: z.number(), last: z.string().nullable() });
const DueCampaignRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  scheduled_send_date: MomentSchema,
  team_id: z.number(),
  is_test: z.boolean(),
  throttled: z.boolean(),
  approval_status: z.enum(['not_required', 'approved']),
  approval_recipients: z.number().nullable(),
  requester: z.number().nullable(),
  threshold: z.number().nullable(),
  ab_test: z.object({ test_share: z.number(), min_recipients_per_variant: z.number() }).nullable(),
  variants: z.number(),
});
type DueCampaign = z.output<typeof DueCampaignRowSchema>;
const OpenCampaignRowSchema = z.object({ id: z.number(), team_id: z.number(), ab_winner: z.number().nullable() });
const LockedRowSchema = z.object({ ok: z.boolean() });
const AudienceStateRowSchema = z.object({ after: z.string().nullable(), count: z.number(), waiting: z.number(), fixed: z.boolean() });
const SegmentLinkRowSchema = z.object({ id: z.coerce.number(), kind: z.enum(['included', 'excluded']) });
const ExpiredRowSchema = z.object({ expired: z.boolean(), stopped: z.boolean() });
const WantedRowSchema = z.object({ wanted: z.boolean() });
const TotalRowSchema = z.object({ total: z.number() });

/** The groups a campaign sends to (in the order given: the first wins a disagreement of fields), and those it leaves out (its excluded groups and the team's default_optouts). */
async function audienceGroups(tx: Tx, campaignId: number, teamId: number): Promise<{ included: number[]; excluded: number[] }> {
  const groups = await oneRowOf(
    tx,
    AudienceGroupsRowSchema,
    sql`
    SELECT coalesce(array_agg(contact_group_id ORDER BY position) FILTER (WHERE kind = 'included'), '{}') AS included,
           coalesce(array_agg(contact_group_id) FILTER (WHERE kind = 'excluded'), '{}') ||
             ARRAY(${suppressionListOf(teamId)}) AS excluded
      FROM campaign_groups WHERE campaign_id = ${campaignId}`,
  );
  return { included: groups.included.map(Number), excluded: groups.excluded.map(Number) };
}

/**
 * Writes the next recipients (by number, after `after`; all of them without `limit`) as messages
 * numbered from `firstSequence`. Returns how many, and the number the chunk ended at when it was
 * full (the audience goes on) or null (every recipient is written).
 */
async function writeRecipients(
  tx: Tx,
  campaign: { id: number; teamId: number },
  chunk: { after: string | null; limit: number | null; firstSequence: number },
  fixed: boolean,
): Promise<{ written: number; after: string | null }> {
  const { included, excluded } = await audienceGroups(tx, campaign.id, campaign.teamId);
  const recipients = fixed
    ? fixedRecipientsOf(campaign, included, chunk)
    : recipientsOf(included, excluded, chunk.limit === null ? undefined : { after: chunk.after, limit: chunk.limit });
  // One set-based statement, numbered by phone number: report pages are sequence ranges.
  // A chunk is read along the phone-number index: never by sorting the whole group (which the
  // planner chooses for a group imported moments ago, before its statistics exist).
  const { rows: found } = await withoutPlans(
    tx,
    chunk.limit === null ? [] : ['enable_sort'],
    sql`
    WITH written AS (
      INSERT INTO messages (campaign_id, sequence, phone_number, custom_fields, contact_group_id)
      SELECT ${campaign.id}, ${chunk.firstSequence - 1} + row_number() OVER (ORDER BY r.phone_number), r.phone_number, r.custom_fields, r.contact_group_id
        FROM (${recipients}) r
      RETURNING phone_number)
    SELECT count(*)::int AS written, max(phone_number) AS last FROM written`,
  );
  const rows = parseRows(WrittenRowSchema, found);
  const written = rows[0]?.written ?? 0;
  return { written, after: chunk.limit !== null && written === chunk.limit ? rows[0]!.last : null };
}

/**
 * A campaign with segments (issue 35): its recipients are fixed when it starts. Its numbers, evaluated
 * then (groups and segments, less the excluded ones and the suppression list), are written once to
 * campaign_audience in the start's transaction, each with the included segments it matched; its
 * messages are written from that list, so a number that starts or stops matching a segment later
 * changes nothing (nor the revenue per segment, read from the same record). Returns how many, or null for a
 * campaign without segments (its audience is its groups', read as it is written, as before).
 */
async function fixAudience(tx: Tx, campaign: { id: number; team_id: number }, zone: string, now: Date): Promise<number | null> {
  const segments = await rowsOf(
    tx,
    SegmentLinkRowSchema,
    sql`SELECT segment_id AS id, kind FROM campaign_segments WHERE campaign_id = ${campaign.id} ORDER BY kind, position`,
  );
  if (segments.length === 0) return null;
  const { included, excluded } = await audienceGroups(tx, campaign.id, campaign.team_id);
  const numbers = await audienceMembershipOf(
    tx,
    campaign.team_id,
    {
      includedGroupIds: included,
      excludedGroupIds: excluded,
      includedSegmentIds: segments.filter((s) => s.kind === 'included').map((s) => s.id),
      excludedSegmentIds: segments.filter((s) => s.kind === 'excluded').map((s) => s.id),
    },
    zone,
    now,
  );
  await useSegmentSettings(tx);
  await tx.execute(sql`DELETE FROM campaign_audience WHERE campaign_id = ${campaign.id}`);
  // With the included segments each number matched: revenue per segment is read from this record (db/revenue.ts).
  const inserted = await tx.execute(
    sql`INSERT INTO campaign_audience (campaign_id, phone_number, segment_ids) SELECT ${campaign.id}, n.phone_number, n.segment_ids FROM (${numbers}) n`,
  );
  return inserted.rowCount ?? 0;
}

/** The next chunk of a fixed audience (campaign_audience), by number, with the fields its messages carry (db/segment-sql.ts). */
function fixedRecipientsOf(campaign: { id: number; teamId: number }, included: number[], chunk: { after: string | null; limit: number | null }) {
  const after = chunk.after === null ? sql`` : sql` AND a.phone_number > ${chunk.after}`;
  const limit = chunk.limit === null ? sql`` : sql` LIMIT ${chunk.limit}`;
  const numbers = sql`SELECT a.phone_number FROM campaign_audience a WHERE a.campaign_id = ${campaign.id}${after} ORDER BY a.phone_number${limit}`;
  return audienceRowsOf(numbers, included, segmentGroupsOf(campaign.teamId));
}

/**
 * An A/B campaign's start: its test only. The audience is ranked by a hash of the campaign's seed
 * and each number (md5, so the same seed always draws the same recipients and split), the first
 * `abTestSize` are written, numbered by phone number like any audience, with variants dealt in
 * turn along the ranking (an even split: sizes differ by one at most). The rest of the audience is
 * not written until the decision (`audience_after` stays NULL; the lifecycle reopens it).
 */
async function writeAbTest(
  tx: Tx,
  campaign: { id: number; teamId: number; variants: number; test_share: number; min_recipients_per_variant: number },
  now: Date,
  fixed: number | null,
): Promise<{ written: number; after: string | null }> {
  const { included, excluded } = await audienceGroups(tx, campaign.id, campaign.teamId);
  // A campaign with segments draws its test from the list fixed at its start.
  const total = fixed ?? (await oneRowOf(tx, TotalRowSchema, countRecipientsOf(included, excluded))).total;
  const audience = fixed === null ? recipientsOf(included, excluded) : fixedRecipientsOf(campaign, included, { after: null, limit: null });
  const tested = abTestSize(total, campaign.variants, campaign);
  const seed = await campaignLifecycle.startAbTest(tx, campaign.id, total, now);
  const { rows: found } = await tx.execute(sql`
    WITH written AS (
      INSERT INTO messages (campaign_id, sequence, phone_number, custom_fields, contact_group_id, variant)
      SELECT ${campaign.id}, row_number() OVER (ORDER BY r.phone_number), r.phone_number, r.custom_fields, r.contact_group_id, ((r.rank - 1) % ${campaign.variants})::smallint
        FROM (SELECT a.*, row_number() OVER (ORDER BY md5(${String(seed)} || ':' || a.phone_number), a.phone_number) AS rank
                FROM (${audience}) a) r
       WHERE r.rank <= ${tested}
      RETURNING 1)
    SELECT count(*)::int AS written, NULL::text AS last FROM written`);
  return { written: parseRows(WrittenRowSchema, found)[0]?.written ?? 0, after: null };
}

/**
 * The rest of an A/B campaign's audience once decided, a chunk at a time like any audience: the
 * recipients after `after` (by number) that are not in the test, with the winner's variant. The
 * chunk is full when it read `limit` recipients, whether or not the test had some of them.
 */
async function writeRest(
  tx: Tx,
  campaign: { id: number; teamId: number; winner: number },
  chunk: { after: string | null; limit: number; firstSequence: number },
  fixed: boolean,
): Promise<{ written: number; after: string | null }> {
  const { included, excluded } = await audienceGroups(tx, campaign.id, campaign.teamId);
  const recipients = fixed ? fixedRecipientsOf(campaign, included, chunk) : recipientsOf(included, excluded, { after: chunk.after, limit: chunk.limit });
  const { rows: found } = await withoutPlans(
    tx,
    ['enable_sort'],
    sql`
    WITH chunk AS MATERIALIZED (${recipients}),
    written AS (
      INSERT INTO messages (campaign_id, sequence, phone_number, custom_fields, contact_group_id, variant)
      SELECT ${campaign.id}, ${chunk.firstSequence - 1} + row_number() OVER (ORDER BY r.phone_number), r.phone_number, r.custom_fields, r.contact_group_id, ${campaign.winner}::smallint
        FROM chunk r WHERE NOT EXISTS (SELECT 1 FROM messages w WHERE w.campaign_id = ${campaign.id} AND w.phone_number = r.phone_number)
      RETURNING 1)
    SELECT (SELECT count(*) FROM written)::int AS written, (SELECT count(*) FROM chunk)::int AS read, (SELECT max(phone_number) FROM chunk) AS last`,
  );
  const row = parseRows(RestRowSchema, found)[0]!;
  return { written: row.written, after: row.read === chunk.limit ? row.last : null };
}

/** Where the e-mails to approvers point (PUBLIC_URL) and the zone their times are written in (APP_TIMEZONE). */
export type ApprovalMailOptions = { publicUrl: string; zone: string };

/**
 * The approval is checked against the audience as it is now, not as it was when the campaign was
 * made or approved: when the recipients reach the team's threshold and no approval covers that many,
 * the campaign goes back to waiting for approval (with a notice), its approvers are e-mailed, and
 * true is returned: nothing is written. Test sends are never held (one number the sender chose).
 */
async function heldForApproval(tx: Tx, campaign: DueCampaign, now: Date, mail: ApprovalMailOptions, fixed: number | null): Promise<boolean> {
  if (campaign.is_test || campaign.threshold === null) return false;
  const { included, excluded } = await audienceGroups(tx, campaign.id, campaign.team_id);
  // A campaign with segments counts the list just fixed: the one it would send to.
  const total = fixed ?? (await oneRowOf(tx, TotalRowSchema, countRecipientsOf(included, excluded))).total;
  const approved = campaign.approval_status === 'approved' ? campaign.approval_recipients : undefined;
  if (total < campaign.threshold || (approved !== undefined && approved !== null && total <= approved)) return false;
  const notice = heldNotice(total, campaign.threshold, approved);
  await campaignLifecycle.holdForApproval(tx, campaign.id, campaign.requester, notice, now);
  const { subject, body } = approvalHeldMail({ uuid: campaign.uuid, name: campaign.name, scheduledSendDate: campaign.scheduled_send_date }, notice, mail);
  // In the account e-mail outbox, from the transaction that held it (like an approval request).
  await tx.execute(sql`
    INSERT INTO account_emails (to_address, subject, body, created_at, next_attempt_at)
    SELECT u.email, ${subject}, ${body}, ${now}, ${now} FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.team_id = ${campaign.team_id} AND m.role = 'admin' AND u.id IS DISTINCT FROM ${campaign.requester}::bigint
     ORDER BY u.id`);
  return true;
}

/** A campaign's start (its first messages written), its audience written on, and its finish (status 2). */
export function createStartStore(db: Db, sizes: AudienceSizes = SIZES, mail: ApprovalMailOptions = { publicUrl: '', zone: 'UTC' }): StartStore {
  let estimating: Promise<void> | undefined;
  /** Campaigns whose start failed in this process, and when to try them again. */
  const failing = new Map<number, number>();
  return {
    /**
     * Campaigns whose send time has come (a local-time campaign's: in the earliest zone): status 1 and their messages, one per distinct recipient
     * (included minus excluded minus default_optouts), numbered by phone number, in one transaction
     * each. A throttled campaign gets every message at once (its plan spreads the whole audience);
     * another gets its first `sizes.first`, so its first batch leaves at once, and `extendAudiences`
     * writes the rest beside the sending. A campaign whose audience now needs an approval it does
     * not have is held instead (`heldForApproval`).
     */
    async startDue(now: Date, limit = 5, onFailure?: (campaignId: number, error: Error) => void): Promise<number[]> {
      const started: number[] = [];
      for (const [id, retryAt] of failing) if (retryAt <= now.getTime()) failing.delete(id);
      for (let i = 0; i < limit; i++) {
        let current: number | undefined;
        const id = await db
          .transaction(async (tx) => {
            const campaign = await firstRowOf(
              tx,
              DueCampaignRowSchema,
              sql`
            SELECT c.id, c.uuid::text AS uuid, c.name, c.scheduled_send_date, c.team_id, c.is_test, c.throttled, c.approval_status, c.approval_recipients,
                   coalesce(c.approval_requested_by, c.created_by)::int AS requester,
                   (SELECT t.approval_threshold FROM teams t WHERE t.id = c.team_id) AS threshold,
                   c.ab_test, (SELECT count(*)::int FROM campaign_variants v WHERE v.campaign_id = c.id) AS variants
              FROM campaigns c
             WHERE c.status = 0 AND c.scheduled_send_date <= ${new Date(now.getTime() + LOCAL_START_LEAD_MS)} AND ${startMomentOf('c')} <= ${now}
               AND c.approval_status IN ('not_required', 'approved') AND NOT c.is_draft
               AND c.id <> ALL(${arrayParam([...failing.keys()])}::bigint[])
             ORDER BY c.scheduled_send_date, c.id LIMIT 1 FOR UPDATE OF c SKIP LOCKED`,
            );
            if (!campaign) return undefined;
            current = campaign.id;
            const fixed = campaign.is_test ? null : await fixAudience(tx, campaign, mail.zone, now);
            if (await heldForApproval(tx, campaign, now, mail, fixed)) {
              await tx.execute(sql`DELETE FROM campaign_audience WHERE campaign_id = ${campaign.id}`);
              return null;
            }
            // The recipients are sorted by number: in memory rather than through temporary files.
            await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
            await campaignLifecycle.startSending(tx, campaign.id, now);
            let start: { written: number; after: string | null };
            if (campaign.is_test) {
              const inserted = await tx.execute(sql`
              INSERT INTO messages (campaign_id, sequence, phone_number, custom_fields)
              SELECT campaign_id, 1, phone_number, custom_fields FROM campaign_test_recipients WHERE campaign_id = ${campaign.id}`);
              start = { written: inserted.rowCount ?? 0, after: null };
            } else if (campaign.ab_test && campaign.variants >= 2) {
              start = await writeAbTest(tx, { id: campaign.id, teamId: campaign.team_id, variants: campaign.variants, ...campaign.ab_test }, now, fixed);
            } else {
              start = await writeRecipients(
                tx,
                { id: campaign.id, teamId: campaign.team_id },
                { after: null, limit: campaign.throttled ? null : sizes.first, firstSequence: 1 },
                fixed !== null,
              );
            }
            // A fixed audience is its own count (campaign.started and the summary read it while the rest is written).
            await tx.execute(sql`
            UPDATE campaigns SET message_count = ${start.written}, audience_after = ${start.after}, next_sequence = 1, anchor_sequence = 1${
              fixed === null ? sql`` : sql`, audience_estimate = ${fixed}`
            } WHERE id = ${campaign.id}`);
            return campaign.id;
          })
          .catch((error: Error) => {
            // A campaign whose start fails is left for a while (its transaction rolled back, so it is
            // still due): the others due behind it start, and the engine's tick goes on to send. A
            // database away or a conflict is no fault of the campaign: the tick fails as before and
            // tries it again at once.
            if (current === undefined || isTransient(error)) throw error;
            failing.set(current, now.getTime() + START_RETRY_MS);
            onFailure?.(current, error);
            return null;
          });
        if (id === undefined) break;
        if (id !== null) started.push(id);
      }
      return started;
    },

    /**
     * Writes more of the audiences still being written, `sizes.chunk` at a time, while fewer than `sizes.ahead`
     * written messages wait to be claimed and for at most `budgetMs`. One process extends a campaign
     * at a time (an advisory lock; the others skip it), so its sequences follow on. Extending never
     * holds the campaign's row lock longer than its last statement: claims go on meanwhile. A chunk
     * written after the campaign expired is unsent (`pending`) at once, like the rest of its queue.
     */
    async extendAudiences(now: Date, budgetMs = 1_000): Promise<number> {
      const started = Date.now();
      let total = 0;
      const open = await rowsOf(
        db,
        OpenCampaignRowSchema,
        sql`
        SELECT id, team_id, ab_winner FROM campaigns WHERE status = 1 AND audience_after IS NOT NULL ORDER BY id`,
      );
      for (const campaign of open) {
        for (let more = true; more && Date.now() - started < budgetMs;) {
          more = await db.transaction(async (tx) => {
            const locked = await oneRowOf(tx, LockedRowSchema, sql`SELECT pg_try_advisory_xact_lock(${AUDIENCE_LOCK}, ${campaign.id}::int) AS ok`);
            if (!locked.ok) return false;
            const state = await firstRowOf(
              tx,
              AudienceStateRowSchema,
              sql`
              SELECT audience_after AS after, message_count AS count, message_count - next_sequence + 1 AS waiting,
                     EXISTS (SELECT 1 FROM campaign_audience a WHERE a.campaign_id = ${campaign.id}) AS fixed
                FROM campaigns WHERE id = ${campaign.id}`,
            );
            if (!state || state.after === null || state.waiting >= sizes.ahead) return false;
            await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
            // After an A/B test's decision: the rest of the audience, with the winner (test recipients left out).
            const chunk =
              campaign.ab_winner === null
                ? await writeRecipients(
                    tx,
                    { id: campaign.id, teamId: campaign.team_id },
                    { after: state.after, limit: sizes.chunk, firstSequence: state.count + 1 },
                    state.fixed,
                  )
                : await writeRest(
                    tx,
                    { id: campaign.id, teamId: campaign.team_id, winner: campaign.ab_winner },
                    { after: state.after, limit: sizes.chunk, firstSequence: state.count + 1 },
                    state.fixed,
                  );
            // A stop committed while the chunk was written ends the audience: the chunk is unsent at once.
            const updated = await firstRowOf(
              tx,
              ExpiredRowSchema,
              sql`
              UPDATE campaigns SET message_count = message_count + ${chunk.written},
                                   audience_after = CASE WHEN stopped_at IS NULL THEN ${chunk.after} END
               WHERE id = ${campaign.id} RETURNING expired_at IS NOT NULL AS expired, stopped_at IS NOT NULL AS stopped`,
            );
            if (updated?.expired || updated?.stopped) await unsendLate(tx, campaign.id, state.count, updated.expired ? 'pending' : 'stopped', now);
            total += chunk.written;
            return chunk.after !== null && !updated?.stopped;
          });
        }
      }
      // The counts run beside the ticks, never holding one up (a million recipients take a second or two).
      estimating ??= (async () => {
        for (const campaign of open) await estimateAudience(db, campaign);
      })()
        .catch(() => undefined) // tried again at the next extension
        .finally(() => (estimating = undefined));
      return total;
    },

    /** Status 2 once every recipient was written, every message claimed and every batch settled (and a stop swept). */
    finishDone(now: Date): Promise<number[]> {
      return campaignLifecycle.finishDone(db, now);
    },
  };
}

/**
 * Messages of an expired or stopped campaign written after its expiry or stop (sequences past
 * `before`): unsent (`pending` or `stopped`) and numbered on from its unsent count, and nothing of
 * them is offered to a claim.
 */
async function unsendLate(tx: Tx, campaignId: number, before: number, reason: 'pending' | 'stopped', now: Date): Promise<void> {
  await tx.execute(sql`
    WITH late AS (
      SELECT id, row_number() OVER (ORDER BY sequence) AS n FROM messages WHERE campaign_id = ${campaignId} AND sequence > ${before} AND status = 'queued'),
    counted AS (SELECT unsent_count FROM campaigns WHERE id = ${campaignId}),
    written AS (
      UPDATE messages m SET status = 'unsent', reason = ${reason}, unsent_sequence = (SELECT unsent_count FROM counted) + late.n, finished_at = ${now}
        FROM late WHERE m.id = late.id RETURNING 1)
    UPDATE campaigns SET unsent_count = unsent_count + (SELECT count(*) FROM written), next_sequence = message_count + 1 WHERE id = ${campaignId}`);
}

/**
 * Counts a campaign's audience once while it is being written, for the summary's recipients (after
 * the first chunks, so the count never delays a message). Numbers that opt out meanwhile make the
 * written audience a little smaller: once it is all written, the summary counts the messages.
 */
async function estimateAudience(db: Db, campaign: { id: number; team_id: number }): Promise<void> {
  await db.transaction(async (tx) => {
    const state = await firstRowOf(
      tx,
      WantedRowSchema,
      sql`
      SELECT audience_estimate IS NULL AND audience_after IS NOT NULL AS wanted FROM campaigns WHERE id = ${campaign.id}`,
    );
    if (!state?.wanted) return;
    const { included, excluded } = await audienceGroups(tx, campaign.id, campaign.team_id);
    await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
    // Counted first, then written: the campaign's row is locked only for the write, not the count.
    const counted = await oneRowOf(tx, TotalRowSchema, countRecipientsOf(included, excluded));
    await tx.execute(sql`UPDATE campaigns SET audience_estimate = ${counted.total} WHERE id = ${campaign.id}`);
  });
}

/**
 * An error that says nothing of the campaign: no connection, the server shutting down or out of
 * resources, a serialization failure or a deadlock (SQLSTATE classes 08, 57, 53 and 40), or no
 * SQLSTATE at all from the driver (a socket error).
 */
function isTransient(error: Error): boolean {
  const cause = error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return cause !== error || 'errno' in cause;
  return ['08', '57', '53', '40'].includes(code.slice(0, 2));
}
