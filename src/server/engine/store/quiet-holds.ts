import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { zoneOfNumber } from '../../lib/phone-zones';
import { localMoment, MISSED_AFTER_MS } from '../../../shared/schedule/local-time';
import { quietUntil, type QuietHours } from '../../../shared/schedule/quiet-hours';
import type { Queued } from './queued';
import { HELD_OWNER, numberUnsent } from './unsent';

/**
 * Why a message waits, and until when: quiet hours in its zone, or (a `local_time` campaign) the
 * scheduled wall-clock time in its zone. `until` is Infinity for a zone whose local time was missed.
 */
export type Hold = { until: number; reason: 'quiet_hours' | 'local_time' };

/** Consecutive messages that may all go now (`hold` null), or all wait for the same `hold`. */
export type Run = { messages: Queued[]; hold: Hold | null };

/** A `local_time` campaign's wall-clock time, and when it started (a zone missed before then is not sent late). */
export type LocalTime = { wall: string; startedAt: Date };

/**
 * When each message may go: `null` now, else what it waits for. A local-time campaign's message
 * first waits for its zone's moment (local-time.ts); once that has come, quiet hours in its zone
 * apply as for any campaign. One lookup per zone a claim (the zones of a batch are few: numbers are
 * in order). Null when nothing applies (the common case).
 */
export function holdsOf(quiet: QuietHours | null, teamZone: string, now: Date, local: LocalTime | null = null): ((phone: string) => Hold | null) | null {
  if (!quiet && !local) return null;
  const byZone = new Map<string, Hold | null>();
  const holdIn = (zone: string): Hold | null => {
    if (local) {
      const moment = localMoment(local.wall, zone);
      if (moment < local.startedAt.getTime() - MISSED_AFTER_MS) return { until: Infinity, reason: 'local_time' };
      if (moment > now.getTime()) return { until: moment, reason: 'local_time' };
    }
    const until = quiet ? quietUntil(quiet, zone, now.getTime()) : null;
    return until === null ? null : { until, reason: 'quiet_hours' };
  };
  return (phone) => {
    const zone = zoneOfNumber(phone, teamZone);
    if (!byZone.has(zone)) byZone.set(zone, holdIn(zone));
    return byZone.get(zone)!;
  };
}

const sameHold = (a: Hold | null, b: Hold | null) => a === b || (a !== null && b !== null && a.until === b.until && a.reason === b.reason);

/** Messages cut into runs of the same hold, in sequence order. */
export function runsOf(messages: Queued[], holdOf: (phone: string) => Hold | null): Run[] {
  const runs: Run[] = [];
  for (const message of messages) {
    const hold = holdOf(message.phoneNumber);
    const last = runs[runs.length - 1];
    if (last && sameHold(last.hold, hold)) last.messages.push(message);
    else runs.push({ messages: [message], hold });
  }
  return runs;
}

/**
 * Runs that wait (for quiet hours to end, or for their local time): kept as batches of their own,
 * owned by no engine (`held`), whose lease ends when the wait does, so a claim takes them over then.
 * A run whose wait lasts past the campaign's expiry can never go: unsent at once, with the reason it
 * waited (`quiet_hours` or `local_time`). Only quiet holds count in `held_messages` (the summary's
 * `held_for_quiet_hours`); a message waiting for its local time is simply queued.
 */
export async function holdRun(tx: Tx, campaignId: number, run: Run, expiry: Date, now: Date): Promise<void> {
  const first = run.messages[0]!.sequence;
  const last = run.messages[run.messages.length - 1]!.sequence;
  const hold = run.hold!;
  if (hold.until >= expiry.getTime()) {
    await tx.execute(sql`
        WITH late AS (SELECT unnest(${sql.param(run.messages.map((m) => m.id))}::bigint[]) AS id)
        ${numberUnsent(campaignId, sql`SELECT id FROM late`, hold.reason, now)}`);
  } else {
    await tx.execute(sql`
        INSERT INTO send_batches (campaign_id, first_sequence, last_sequence, owner, lease_until, held_messages)
        VALUES (${campaignId}, ${first}, ${last}, ${HELD_OWNER}, ${new Date(hold.until)}, ${hold.reason === 'quiet_hours' ? run.messages.length : null})`);
  }
}
