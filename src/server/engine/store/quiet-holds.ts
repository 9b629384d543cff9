import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { zoneOfNumber } from '../../lib/phone-zones';
import { quietUntil, type QuietHours } from '../../../shared/schedule/quiet-hours';
import type { Queued } from './queued';
import { HELD_OWNER, numberUnsent } from './unsent';

/** Consecutive messages that may all go now (`hold` null), or all wait until `hold`. */
export type Run = { messages: Queued[]; hold: number | null };

/**
 * When each message may go, as quiet hours in its number's zone say: `null` now, else the moment
 * they end. One lookup per zone a claim (the zones of a batch are few: numbers are in order).
 */
export function holdsOf(quiet: QuietHours | null, teamZone: string, now: Date): ((phone: string) => number | null) | null {
  if (!quiet) return null;
  const byZone = new Map<string, number | null>();
  return (phone) => {
    const zone = zoneOfNumber(phone, teamZone);
    if (!byZone.has(zone)) byZone.set(zone, quietUntil(quiet, zone, now.getTime()));
    return byZone.get(zone)!;
  };
}

/** Messages cut into runs of the same hold, in sequence order. */
export function runsOf(messages: Queued[], holdOf: (phone: string) => number | null): Run[] {
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
 * Runs that wait for quiet hours to end: kept as batches of their own, owned by no engine (`held`),
 * whose lease ends when quiet hours do, so a claim takes them over then. A run whose quiet hours
 * last past the campaign's expiry can never go: unsent at once (`quiet_hours`).
 */
export async function holdRun(tx: Tx, campaignId: number, run: Run, expiry: Date, now: Date): Promise<void> {
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
}
