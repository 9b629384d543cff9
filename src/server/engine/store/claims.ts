import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { firstRowOf, MomentSchema, oneRowOf } from '../../db/rows';
import { QuietHoursSchema } from '../../../shared/contract';
import type { ClaimStore } from '../engine-store';
import { capOf, withoutCapped } from './frequency-caps';
import { withoutOptOuts } from './opt-outs';
import { queuedIn } from './queued';
import { holdRun, holdsOf, runsOf } from './quiet-holds';
import { sendingCampaigns } from './sending';
import { settleBatch } from './settle';
import { insertShortLinks } from './short-links';
import { takeOverDead } from './takeover';

const NextRangeRowSchema = z.object({ first: z.number(), last: z.number() });
const InsertedBatchRowSchema = z.object({ id: z.number(), token: z.number() });
const OpenRowSchema = z.object({
  ignoreQuiet: z.boolean(),
  expiry: MomentSchema,
  quiet: QuietHoursSchema.nullable(),
  zone: z.string().nullable(),
  localWall: z.string().nullable(),
  startedAt: MomentSchema.nullable(),
  teamId: z.number(),
  isTest: z.boolean(),
  capMessages: z.number().nullable(),
  capDays: z.number().nullable(),
});

/**
 * Claims and settles batches of a campaign's messages under fenced leases. The claim is here: it
 * takes over a dead owner's batch first (takeover.ts, with the in-doubt rules), else the next
 * range; both hold the runs that wait for quiet hours or their local time (quiet-holds.ts), leave out opted-out
 * numbers (opt-outs.ts) and make unsent the messages over the team's frequency cap (frequency-caps.ts). The sending campaigns are listed by sending.ts, a batch is settled by
 * settle.ts, and its short links are recorded by short-links.ts.
 *
 * Lock order, which every engine transaction keeps so none waits on another in a cycle: a claim
 * locks the campaign's row, then batches only with SKIP LOCKED; a settle locks its batch, then the
 * campaign's row; the expiry skips a locked campaign and locked batches.
 */
export function createClaimStore(db: Db, options: { defaultZone?: string } = {}): ClaimStore {
  const defaultZone = options.defaultZone ?? 'Europe/London';

  return {
    sending: () => sendingCampaigns(db, defaultZone),

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
          SELECT c.ignore_quiet_hours AS "ignoreQuiet", c.expiry_date AS expiry, t.quiet_hours AS quiet, t.time_zone AS zone,
                 c.local_send_time AS "localWall", c.started_sending_at AS "startedAt", c.team_id::int AS "teamId", c.is_test AS "isTest",
                 t.frequency_cap_messages AS "capMessages", t.frequency_cap_days AS "capDays"
            FROM campaigns c JOIN teams t ON t.id = c.team_id
           WHERE c.id = ${campaignId} AND c.status = 1 AND c.manually_paused IS NOT TRUE
             AND c.expiry_date > ${now} AND c.expired_at IS NULL AND c.stopped_at IS NULL FOR UPDATE OF c`,
        );
        if (!open) return undefined;
        // Quiet hours, and a local-time campaign's moment, in each recipient's zone (null: none apply,
        // the common case, and nothing is looked up).
        const local = open.localWall === null ? null : { wall: open.localWall, startedAt: open.startedAt ?? now };
        const holdOf = holdsOf(open.ignoreQuiet ? null : open.quiet, open.zone ?? defaultZone, now, local);
        // The team's frequency cap (frequency-caps.ts); a test send is never capped.
        const cap = open.isTest ? null : capOf(open.capMessages, open.capDays);
        const capped = { teamId: open.teamId, cap };

        // A batch whose owner stopped renewing its lease is taken over first (takeover.ts).
        const takenOver = await takeOverDead(tx, { campaignId, limit, owner, now, leaseUntil, inDoubt, holdOf, expiry: open.expiry, capped });
        if (takenOver) return takenOver;

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
            for (const run of sendable < 0 ? runs : runs.slice(0, sendable)) await holdRun(tx, campaignId, run, open.expiry, now);
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
          const claimed = await withoutOptOuts(tx, campaignId, { batchId: inserted.id, token: String(inserted.token) }, messages, now);
          return withoutCapped(tx, campaignId, capped.teamId, capped.cap, claimed, now);
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

    settle: (lease, outcome, inDoubt, now, owner) => settleBatch(db, lease, outcome, inDoubt, now, owner),

    insertShortLinks: (rows) => insertShortLinks(db, rows),
  };
}
