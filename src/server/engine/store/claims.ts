import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { arrayParam } from '../../db/arrays';
import { withoutPlans } from '../../db/plans';
import { firstRowOf, MomentSchema, oneRowOf, parseRows, rowsOf } from '../../db/rows';
import type { BatchOutcome, ClaimedBatch, ClaimedMessage, ClaimStore, InDoubtPolicy, Lease, SendingCampaign } from '../engine-store';
import { HELD_OWNER, numberUnsent } from './unsent';
import { suppressedAmong, suppressionListOfCampaign } from '../../modules/suppressions/suppressions.sql';
import { quietUntil, type QuietHours } from '../../../shared/schedule/quiet-hours';
import { QuietHoursSchema } from '../../../shared/contract';
import { zoneOfNumber } from '../../lib/phone-zones';
import { settleEarlyReceipts } from './receipts';
import { measure } from '../../../shared/sms';

/** A batch's range of sequences, and whether its owner was handing it over. */
const RangeRowSchema = z.object({ id: z.number(), first: z.number(), last: z.number(), submitting: z.boolean() });
type Range = z.output<typeof RangeRowSchema>;
/** A queued message as a claim reads it (custom_fields is jsonb: parsed already). */
const QueuedMessageRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  sequence: z.number(),
  phoneNumber: z.string(),
  customFields: z.record(z.string(), z.string()),
});
const PhoneRowSchema = z.object({ phone: z.string() });
const IdRowSchema = z.object({ id: z.number() });
/** A sending campaign: its timestamps as PostgreSQL's text, those of its pauses as JSON text. */
const SendingRowSchema = z.object({
  id: z.number(),
  throttled: z.boolean(),
  scheduledFinishDate: MomentSchema.nullable(),
  expiryDate: MomentSchema,
  sender: z.string(),
  body: z.string(),
  anchor: MomentSchema,
  sentSinceAnchor: z.number(),
  queued: z.number(),
  pauses: z.array(z.object({ start: MomentSchema, end: MomentSchema })),
  quiet: QuietHoursSchema.nullable(),
  zone: z.string().nullable(),
  links: z.record(z.string(), z.object({ id: z.number(), destination: z.string(), domain: z.string().nullable() })),
});
/** send_batches.token is a bigint: a number here, a string in a Lease. */
const TokenRowSchema = z.object({ token: z.number() });
const NextRangeRowSchema = z.object({ first: z.number(), last: z.number() });
const InsertedBatchRowSchema = z.object({ id: z.number(), token: z.number() });
const OwnedBatchRowSchema = z.object({ campaign_id: z.number(), expired: z.boolean(), stopped: z.boolean() });
const OpenRowSchema = z.object({ ignoreQuiet: z.boolean(), expiry: MomentSchema, quiet: QuietHoursSchema.nullable(), zone: z.string().nullable() });

type Queued = z.output<typeof QueuedMessageRowSchema>;
/** Consecutive messages that may all go now (`hold` null), or all wait until `hold`. */
type Run = { messages: Queued[]; hold: number | null };

/**
 * When each message may go, as quiet hours in its number's zone say: `null` now, else the moment
 * they end. One lookup per zone a claim (the zones of a batch are few: numbers are in order).
 */
function holdsOf(quiet: QuietHours | null, teamZone: string, now: Date): ((phone: string) => number | null) | null {
  if (!quiet) return null;
  const byZone = new Map<string, number | null>();
  return (phone) => {
    const zone = zoneOfNumber(phone, teamZone);
    if (!byZone.has(zone)) byZone.set(zone, quietUntil(quiet, zone, now.getTime()));
    return byZone.get(zone)!;
  };
}

/** Messages cut into runs of the same hold, in sequence order. */
function runsOf(messages: Queued[], holdOf: (phone: string) => number | null): Run[] {
  const runs: Run[] = [];
  for (const message of messages) {
    const hold = holdOf(message.phoneNumber);
    const last = runs[runs.length - 1];
    if (last && last.hold === hold) last.messages.push(message);
    else runs.push({ messages: [message], hold });
  }
  return runs;
}

/**
 * Claims and settles batches of a campaign's messages under fenced leases.
 *
 * Lock order, which every engine transaction keeps so none waits on another in a cycle: a claim
 * locks the campaign's row, then batches only with SKIP LOCKED; a settle locks its batch, then the
 * campaign's row; the expiry skips a locked campaign and locked batches.
 */
export function createClaimStore(db: Db, options: { defaultZone?: string } = {}): ClaimStore {
  const defaultZone = options.defaultZone ?? 'Europe/London';

  /**
   * Runs that wait for quiet hours to end: kept as batches of their own, owned by no engine (`held`),
   * whose lease ends when quiet hours do, so a claim takes them over then. A run whose quiet hours
   * last past the campaign's expiry can never go: unsent at once (`quiet_hours`).
   */
  const hold = async (tx: Tx, campaignId: number, run: Run, expiry: Date, now: Date) => {
    const first = run.messages[0]!.sequence;
    const last = run.messages[run.messages.length - 1]!.sequence;
    if (run.hold! >= expiry.getTime()) {
      await tx.execute(sql`
        WITH late AS (SELECT unnest(${sql.param(run.messages.map((m) => m.id))}::bigint[]) AS id)
        ${numberUnsent(campaignId, sql`SELECT id FROM late`, 'quiet_hours', now)}`);
    } else {
      await tx.execute(sql`
        INSERT INTO send_batches (campaign_id, first_sequence, last_sequence, owner, lease_until, held_messages)
        VALUES (${campaignId}, ${first}, ${last}, ${HELD_OWNER}, ${new Date(run.hold!)}, ${run.messages.length})`);
    }
  };

  /** A batch's queued messages, in sequence order, at most `limit`. */
  const queuedIn = (tx: Tx, campaignId: number, first: number, last: number, limit: number) =>
    rowsOf(
      tx,
      QueuedMessageRowSchema,
      sql`
        SELECT id, uuid, sequence, phone_number AS "phoneNumber", custom_fields AS "customFields" FROM messages
         WHERE campaign_id = ${campaignId} AND sequence BETWEEN ${first} AND ${last} AND status = 'queued'
         ORDER BY sequence LIMIT ${limit}`,
    );

  /**
   * A number that opted out since sending began (STOP to an earlier message) is not sent to: its
   * message becomes unsent (`opted_out`), numbered for the unsent report like those expiry leaves.
   */
  const withoutOptOuts = async (
    tx: Tx,
    campaignId: number,
    lease: Lease,
    messages: Array<ClaimedMessage & { sequence: number }>,
    now: Date,
  ): Promise<ClaimedBatch> => {
    // The batch's numbers looked up in the team's suppression list (its index by number; the
    // numbers are in hand): almost always none, and then nothing else is read or written.
    const { rows: found } = await withoutPlans(
      tx,
      ['enable_seqscan'],
      suppressedAmong(suppressionListOfCampaign(campaignId), sql`${arrayParam(messages.map((m) => m.phoneNumber))}::text[]`),
    );
    const opted = parseRows(PhoneRowSchema, found);
    if (opted.length === 0) return { ...lease, messages: messages.map(({ sequence: _, ...message }) => message) };
    const phones = new Set(opted.map((row) => row.phone));
    const ids = messages.filter((m) => phones.has(m.phoneNumber)).map((m) => m.id);
    const optedOut = await rowsOf(
      tx,
      IdRowSchema,
      sql`
      WITH opted AS (SELECT unnest(${sql.param(ids)}::bigint[]) AS id)
      ${numberUnsent(campaignId, sql`SELECT id FROM opted`, 'opted_out', now)}`,
    );
    const skipped = new Set(optedOut.map((row) => row.id));
    return { ...lease, messages: messages.filter((m) => !skipped.has(m.id)).map(({ sequence: _, ...message }) => message) };
  };

  /**
   * A batch whose owner died while handing it over: its still-queued messages may or may not have
   * gone. `fail` marks them failed (`in_doubt`) and drops the batch (true); `resend` counts them and
   * lets the takeover offer them again (false); `recall` lets the takeover ask the gateway (false).
   */
  const settleInDoubt = async (tx: Tx, campaignId: number, batch: Range, policy: InDoubtPolicy, now: Date): Promise<boolean> => {
    const inRange = sql`campaign_id = ${campaignId} AND sequence BETWEEN ${batch.first} AND ${batch.last} AND status = 'queued'`;
    if (policy === 'fail') {
      await tx.execute(sql`
        WITH doubtful AS (
          UPDATE messages SET status = 'failed', reason = 'in_doubt', finished_at = ${now} WHERE ${inRange} RETURNING id)
        UPDATE campaigns SET failed_count = failed_count + (SELECT count(*) FROM doubtful), in_doubt_count = in_doubt_count + (SELECT count(*) FROM doubtful)
         WHERE id = ${campaignId}`);
      await tx.execute(sql`DELETE FROM send_batches WHERE id = ${batch.id}`);
      return true;
    }
    if (policy === 'recall') return false;
    await tx.execute(sql`
      UPDATE campaigns SET in_doubt_count = in_doubt_count + (SELECT count(*) FROM messages WHERE ${inRange}) WHERE id = ${campaignId}`);
    return false;
  };

  return {
    async sending(): Promise<SendingCampaign[]> {
      const rows = await rowsOf(
        db,
        SendingRowSchema,
        sql`
        SELECT c.id, c.throttled, c.scheduled_finish_date AS "scheduledFinishDate", c.expiry_date AS "expiryDate", c.sender, t.body,
               greatest(c.started_sending_at, c.resumed_at) AS anchor,
               c.next_sequence - c.anchor_sequence AS "sentSinceAnchor",
               c.message_count - c.next_sequence + 1 + coalesce((SELECT sum(b.last_sequence - b.first_sequence + 1) FROM send_batches b WHERE b.campaign_id = c.id), 0)::int AS queued,
               coalesce((SELECT json_agg(json_build_object('start', p.start_at, 'end', p.end_at)) FROM campaign_pauses p WHERE p.campaign_id = c.id), '[]') AS pauses,
               CASE WHEN NOT c.ignore_quiet_hours THEN tm.quiet_hours END AS quiet, tm.time_zone AS zone,
               coalesce((SELECT json_object_agg(l.name, json_build_object('id', l.id, 'destination', l.destination, 'domain', vd.domain))
                           FROM links l JOIN vanity_domains vd ON vd.id = l.vanity_domain_id WHERE l.template_id = c.template_id), '{}') AS links
          FROM campaigns c JOIN templates t ON t.id = c.template_id JOIN teams tm ON tm.id = c.team_id
         WHERE c.status = 1 AND c.manually_paused IS NOT TRUE AND c.expired_at IS NULL AND c.stopped_at IS NULL
         -- Throttled campaigns first: each asks only for its plan's share and has a finish time to keep.
         ORDER BY c.throttled DESC, c.started_sending_at, c.id`,
      );
      return rows.map(({ quiet, zone, ...row }) => ({
        ...row,
        pauses: row.pauses.map((p) => ({ start: p.start.getTime(), end: p.end.getTime() })),
        quiet: quiet ? { hours: quiet, zone: zone ?? defaultZone } : null,
      }));
    },

    async claim(campaignId, limit, owner, now, leaseMs, inDoubt) {
      const leaseUntil = new Date(now.getTime() + leaseMs);
      return db.transaction(async (tx) => {
        // Checked at each claim, not once a tick: a pause by hand, a stop or the expiry stops the very next
        // batch. The row lock makes claimers of one campaign go one after the other, and keeps the
        // expiry step (which skips a locked campaign) out of the middle of a claim.
        const open = await firstRowOf(
          tx,
          OpenRowSchema,
          sql`
          SELECT c.ignore_quiet_hours AS "ignoreQuiet", c.expiry_date AS expiry, t.quiet_hours AS quiet, t.time_zone AS zone
            FROM campaigns c JOIN teams t ON t.id = c.team_id
           WHERE c.id = ${campaignId} AND c.status = 1 AND c.manually_paused IS NOT TRUE
             AND c.expiry_date > ${now} AND c.expired_at IS NULL AND c.stopped_at IS NULL FOR UPDATE OF c`,
        );
        if (!open) return undefined;
        // Quiet hours in each recipient's zone (null: none apply, the common case, and nothing is looked up).
        const holdOf = holdsOf(open.ignoreQuiet ? null : open.quiet, open.zone ?? defaultZone, now);

        // A batch whose owner stopped renewing its lease (it died, or was cut off): taken over under
        // a new token, cut to `limit` (the rest stays free for others). A live owner renews, so its
        // batch is never offered here.
        for (;;) {
          const batch = await firstRowOf(
            tx,
            RangeRowSchema,
            sql`
            SELECT id, first_sequence AS first, last_sequence AS last, submitting FROM send_batches
             WHERE campaign_id = ${campaignId} AND lease_until < ${now}
             ORDER BY first_sequence LIMIT 1 FOR UPDATE SKIP LOCKED`,
          );
          if (!batch) break;
          if (batch.submitting && (await settleInDoubt(tx, campaignId, batch, inDoubt, now))) continue;
          // Under `recall` the batch stays marked as being handed over until its new owner settles what
          // it asked: one that dies before asking leaves it in doubt for the next, not as never sent.
          const recall = batch.submitting && inDoubt === 'recall';
          let messages = await queuedIn(tx, campaignId, batch.first, batch.last, limit);
          if (messages.length > 0 && holdOf && !batch.submitting) {
            // A batch taken over (or held, its quiet hours over): what leads it and waits is held again
            // (or unsent past the expiry); the rest goes as usual, cut at the first message that waits.
            const runs = runsOf(messages, holdOf);
            const first = runs[0]!;
            if (first.hold !== null) {
              await hold(tx, campaignId, first, open.expiry, now);
              const rest = first.messages[first.messages.length - 1]!.sequence + 1;
              if (rest > batch.last) await tx.execute(sql`DELETE FROM send_batches WHERE id = ${batch.id}`);
              else await tx.execute(sql`UPDATE send_batches SET first_sequence = ${rest}, lease_until = '-infinity' WHERE id = ${batch.id}`);
              continue;
            }
            messages = first.messages;
          }
          if (messages.length === 0) {
            await tx.execute(sql`DELETE FROM send_batches WHERE id = ${batch.id}`);
            continue;
          }
          const through = messages[messages.length - 1]!.sequence;
          const taken = await oneRowOf(
            tx,
            TokenRowSchema,
            sql`
            UPDATE send_batches SET owner = ${owner}, lease_until = ${leaseUntil}, token = nextval('send_batch_tokens'), submitting = ${recall}, held_messages = NULL,
                   first_sequence = ${messages[0]!.sequence}, last_sequence = ${through}
             WHERE id = ${batch.id} RETURNING token`,
          );
          if (through < batch.last) {
            // The rest of a batch to recall stays in doubt: whoever takes it asks the gateway too.
            await tx.execute(sql`
              INSERT INTO send_batches (campaign_id, first_sequence, last_sequence, owner, lease_until, submitting)
              VALUES (${campaignId}, ${through + 1}, ${batch.last}, ${owner}, '-infinity', ${recall})`);
          }
          const claimed = await withoutOptOuts(tx, campaignId, { batchId: batch.id, token: String(taken.token) }, messages, now);
          return recall ? { ...claimed, inDoubt: true } : claimed;
        }

        // The next range of sequences. With quiet hours, the runs that wait are held and the first run
        // that may go is claimed; ranges that wait whole are passed over (a few a claim).
        for (let ranges = 0; ranges < 20; ranges++) {
          const next = await firstRowOf(
            tx,
            NextRangeRowSchema,
            sql`
            WITH c AS (SELECT id, next_sequence AS first, least(next_sequence + ${limit}, message_count + 1) AS next
                         FROM campaigns WHERE id = ${campaignId} AND next_sequence <= message_count)
            UPDATE campaigns SET next_sequence = c.next FROM c WHERE campaigns.id = c.id
            RETURNING c.first, c.next - 1 AS last`,
          );
          if (!next) return undefined;
          let messages = await queuedIn(tx, campaignId, next.first, next.last, limit);
          let range = { first: next.first, last: next.last };
          if (holdOf) {
            const runs = runsOf(messages, holdOf);
            const sendable = runs.findIndex((run) => run.hold === null);
            for (const run of sendable < 0 ? runs : runs.slice(0, sendable)) await hold(tx, campaignId, run, open.expiry, now);
            if (sendable < 0) continue;
            messages = runs[sendable]!.messages;
            range = { first: messages[0]!.sequence, last: messages[messages.length - 1]!.sequence };
            // What follows the run is claimed again later (this range is not all used).
            if (range.last < next.last) await tx.execute(sql`UPDATE campaigns SET next_sequence = ${range.last + 1} WHERE id = ${campaignId}`);
          }
          const inserted = await oneRowOf(
            tx,
            InsertedBatchRowSchema,
            sql`
            INSERT INTO send_batches (campaign_id, first_sequence, last_sequence, owner, lease_until)
            VALUES (${campaignId}, ${range.first}, ${range.last}, ${owner}, ${leaseUntil}) RETURNING id, token`,
          );
          return withoutOptOuts(tx, campaignId, { batchId: inserted.id, token: String(inserted.token) }, messages, now);
        }
        return undefined;
      });
    },

    async markSubmitting(lease, now, leaseMs) {
      const result = await db.execute(sql`
        UPDATE send_batches SET submitting = true, lease_until = ${new Date(now.getTime() + leaseMs)}
         WHERE id = ${lease.batchId} AND token = ${lease.token}`);
      return result.rowCount === 1;
    },

    async renew(lease, now, leaseMs) {
      const result = await db.execute(sql`
        UPDATE send_batches SET lease_until = ${new Date(now.getTime() + leaseMs)} WHERE id = ${lease.batchId} AND token = ${lease.token}`);
      return result.rowCount === 1;
    },

    /**
     * The checkpoint, in one transaction fenced by the token: what the gateway accepted is
     * submitted, what it refused failed, what is in doubt failed (`in_doubt`) or left queued per the
     * policy, what was never handed over left queued; the counters move with them; the batch is
     * deleted, or released at once for what is left (unsent instead, once the campaign has expired or
     * was stopped).
     */
    async settle(lease, outcome, inDoubt, now, owner) {
      return db.transaction(async (tx) => {
        const batch = await firstRowOf(
          tx,
          OwnedBatchRowSchema,
          sql`
          SELECT b.campaign_id, (c.expiry_date <= ${now} OR c.expired_at IS NOT NULL) AS expired, c.stopped_at IS NOT NULL AS stopped
            FROM send_batches b JOIN campaigns c ON c.id = b.campaign_id
           WHERE b.id = ${lease.batchId} AND b.token = ${lease.token} FOR UPDATE OF b`,
        );
        if (!batch) return 'lost';
        const campaignId = batch.campaign_id;
        await writeOutcome(tx, campaignId, outcome, inDoubt, now, owner);
        const leftover = [...outcome.notSent, ...(inDoubt === 'fail' ? [] : outcome.inDoubt)];
        const ended = batch.expired || batch.stopped;
        if (ended && leftover.length > 0) {
          // Nothing goes after the expiry or a stop: what this batch did not hand over is unsent, like the rest.
          await tx.execute(sql`
            WITH late AS (SELECT id FROM messages WHERE id = ANY(${sql.param(leftover)}::bigint[]) AND status = 'queued')
            ${numberUnsent(campaignId, sql`SELECT id FROM late`, batch.expired ? 'pending' : 'stopped', now)}`);
        }
        if (!ended && leftover.length > 0) {
          await tx.execute(sql`UPDATE send_batches SET lease_until = '-infinity', submitting = false WHERE id = ${lease.batchId}`);
        } else {
          await tx.execute(sql`DELETE FROM send_batches WHERE id = ${lease.batchId}`);
        }
        if (outcome.submitted.length > 0)
          await settleEarlyReceipts(
            tx,
            outcome.submitted.map((s) => s.gatewayId),
          );
        return 'settled';
      });
    },

    async insertShortLinks(rows) {
      if (rows.length === 0) return true;
      const result = await db.execute(sql`
        INSERT INTO short_links (code, message_id, link_id, link_name, destination)
        SELECT * FROM unnest(${sql.param(rows.map((r) => r.code))}::text[], ${sql.param(rows.map((r) => r.messageId))}::bigint[],
                             ${sql.param(rows.map((r) => r.linkId))}::bigint[], ${sql.param(rows.map((r) => r.linkName))}::text[],
                             ${sql.param(rows.map((r) => r.destination))}::text[])
        ON CONFLICT (code) DO NOTHING`);
      if ((result.rowCount ?? 0) === rows.length) return true;
      await db.execute(
        sql`DELETE FROM short_links WHERE code = ANY(${sql.param(rows.map((r) => r.code))}::text[]) AND message_id = ANY(${sql.param(rows.map((r) => r.messageId))}::bigint[])`,
      );
      return false;
    },
  };
}

/**
 * A function giving the SMS parts of a body (for the overview's count and cost). Bodies repeat (a
 * campaign without personal fields sends one body), so each distinct body is measured once.
 */
function segmentCounter(): (body: string) => number {
  const measured = new Map<string, number>();
  return (body) => {
    let segments = measured.get(body);
    if (segments === undefined) {
      segments = measure(body).segments;
      measured.set(body, segments);
    }
    return segments;
  };
}

/** The messages' new states and the campaign's counters, in one statement (only messages still queued move). */
async function writeOutcome(tx: Tx, campaignId: number, outcome: BatchOutcome, inDoubt: InDoubtPolicy, now: Date, owner: string): Promise<void> {
  const doubtful = inDoubt === 'fail' ? outcome.inDoubt : [];
  const segmentsOf = segmentCounter();
  const rows = [
    ...outcome.submitted.map((s) => ({
      id: s.id,
      status: 'submitted',
      body: s.body as string | null,
      gatewayId: s.gatewayId as string | null,
      reason: null as string | null,
      segments: segmentsOf(s.body),
    })),
    ...outcome.rejected.map((r) => ({ id: r.id, status: 'failed', body: r.body, gatewayId: null, reason: r.reason, segments: 0 })),
    ...doubtful.map((id) => ({ id, status: 'failed', body: null, gatewayId: null, reason: 'in_doubt', segments: 0 })),
  ];
  if (rows.length === 0 && outcome.inDoubt.length === 0) return;
  const ids = rows.map((row) => row.id);
  // Found through the primary key and joined by hash, whatever the statistics say. The ids are the
  // batch's own (its claim read them from this campaign): no condition on campaign_id, which the
  // planner would add as a bitmap of the campaign's whole sequence index (40 ms a batch at a million).
  await withoutPlans(
    tx,
    ['enable_nestloop', 'enable_seqscan'],
    sql`
    WITH incoming AS (
      SELECT * FROM unnest(${arrayParam(ids)}::bigint[], ${arrayParam(rows.map((r) => r.status))}::text[], ${arrayParam(rows.map((r) => r.body))}::text[],
                           ${arrayParam(rows.map((r) => r.gatewayId))}::text[], ${arrayParam(rows.map((r) => r.reason))}::text[],
                           ${arrayParam(rows.map((r) => r.segments))}::int[]) AS t(id, status, body, gateway_id, reason, segments)),
    written AS (
      UPDATE messages m SET status = i.status, reason = i.reason, body = coalesce(i.body, m.body), gateway_id = i.gateway_id,
                            submitted_at = CASE WHEN i.status = 'submitted' THEN ${now}::timestamptz END,
                            finished_at = CASE WHEN i.status = 'failed' THEN ${now}::timestamptz END,
                            submitted_by = ${owner}
        FROM incoming i WHERE m.id = i.id AND m.status = 'queued' AND m.id = ANY(${arrayParam(ids)}::bigint[])
      RETURNING m.status, i.segments)
    UPDATE campaigns SET submitted_count = submitted_count + (SELECT count(*) FROM written WHERE status = 'submitted'),
                         failed_count = failed_count + (SELECT count(*) FROM written WHERE status = 'failed'),
                         segments_submitted = segments_submitted + (SELECT coalesce(sum(segments), 0) FROM written WHERE status = 'submitted'),
                         in_doubt_count = in_doubt_count + ${inDoubt === 'recall' ? 0 : outcome.inDoubt.length}
     WHERE id = ${campaignId}`,
  );
}
