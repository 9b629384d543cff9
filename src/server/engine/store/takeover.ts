import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/client';
import { firstRowOf, oneRowOf } from '../../db/rows';
import type { ClaimedBatch, InDoubtPolicy } from '../engine-store';
import { withoutCapped, type FrequencyCap } from './frequency-caps';
import { withoutOptOuts } from './opt-outs';
import { queuedIn } from './queued';
import { holdRun, runsOf, type Hold } from './quiet-holds';

/** A batch's range of sequences, and whether its owner was handing it over. */
const RangeRowSchema = z.object({ id: z.number(), first: z.number(), last: z.number(), submitting: z.boolean() });
type Range = z.output<typeof RangeRowSchema>;
/** send_batches.token is a bigint: a number here, a string in a Lease. */
const TokenRowSchema = z.object({ token: z.number() });

/**
 * A batch whose owner died while handing it over: its still-queued messages may or may not have
 * gone. `fail` marks them failed (`in_doubt`) and drops the batch (true); `resend` counts them and
 * lets the takeover offer them again (false); `ask` lets the takeover ask the gateway (false).
 */
async function settleInDoubt(tx: Tx, campaignId: number, batch: Range, policy: InDoubtPolicy, now: Date): Promise<boolean> {
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
  if (policy === 'ask') return false;
  await tx.execute(sql`
      UPDATE campaigns SET in_doubt_count = in_doubt_count + (SELECT count(*) FROM messages WHERE ${inRange}) WHERE id = ${campaignId}`);
  return false;
}

/** What a takeover needs from the claim that runs it (in the claim's transaction, the campaign's row locked). */
export type Takeover = {
  campaignId: number;
  limit: number;
  owner: string;
  now: Date;
  leaseUntil: Date;
  inDoubt: InDoubtPolicy;
  /** Quiet hours and local time by number (null: none apply). */
  holdOf: ((phone: string) => Hold | null) | null;
  expiry: Date;
  /** The campaign's team and its frequency cap (null: none, or a test send). */
  capped: { teamId: number; cap: FrequencyCap | null };
};

/**
 * A batch whose owner stopped renewing its lease (it died, or was cut off): taken over under
 * a new token, cut to `limit` (the rest stays free for others). A live owner renews, so its
 * batch is never offered here. Undefined when no batch is to be taken over (the claim then takes
 * the next range).
 */
export async function takeOverDead(
  tx: Tx,
  { campaignId, limit, owner, now, leaseUntil, inDoubt, holdOf, expiry, capped }: Takeover,
): Promise<ClaimedBatch | undefined> {
  for (;;) {
    const batch = await firstRowOf(
      tx,
      RangeRowSchema,
      sql`
            SELECT id, first_sequence AS first, last_sequence AS last, submitting FROM send_batches
             WHERE campaign_id = ${campaignId} AND lease_until < ${now}
             ORDER BY first_sequence LIMIT 1 FOR UPDATE SKIP LOCKED`,
    );
    if (!batch) return undefined;
    if (batch.submitting && (await settleInDoubt(tx, campaignId, batch, inDoubt, now))) continue;
    // Under `ask` the batch stays marked as being handed over until its new owner settles what
    // it asked: one that dies before asking leaves it in doubt for the next, not as never sent.
    const asking = batch.submitting && inDoubt === 'ask';
    let messages = await queuedIn(tx, campaignId, batch.first, batch.last, limit);
    if (messages.length > 0 && holdOf && !batch.submitting) {
      // A batch taken over (or held, its quiet hours over): what leads it and waits is held again
      // (or unsent past the expiry); the rest goes as usual, cut at the first message that waits.
      const runs = runsOf(messages, holdOf);
      const first = runs[0]!;
      if (first.hold !== null) {
        await holdRun(tx, campaignId, first, expiry, now);
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
            UPDATE send_batches SET owner = ${owner}, lease_until = ${leaseUntil}, token = nextval('send_batch_tokens'), submitting = ${asking}, held_messages = NULL,
                   first_sequence = ${messages[0]!.sequence}, last_sequence = ${through}
             WHERE id = ${batch.id} RETURNING token`,
    );
    if (through < batch.last) {
      // The rest of a batch to ask about stays in doubt: whoever takes it asks the gateway too.
      await tx.execute(sql`
              INSERT INTO send_batches (campaign_id, first_sequence, last_sequence, owner, lease_until, submitting)
              VALUES (${campaignId}, ${through + 1}, ${batch.last}, ${owner}, '-infinity', ${asking})`);
    }
    const claimed = await withoutOptOuts(tx, campaignId, { batchId: batch.id, token: String(taken.token) }, messages, now);
    // A batch to ask about may have gone already: the gateway's answer settles it, not the cap.
    return asking ? { ...claimed, inDoubt: true } : withoutCapped(tx, campaignId, capped.teamId, capped.cap, claimed, now);
  }
}
