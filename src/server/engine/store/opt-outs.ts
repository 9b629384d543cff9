import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/client';
import { arrayParam } from '../../db/arrays';
import { withoutPlans } from '../../db/plans';
import { parseRows, rowsOf } from '../../db/rows';
import { suppressedAmong, suppressionListOfCampaign } from '../../modules/suppressions/suppressions.sql';
import type { ClaimedBatch, ClaimedMessage, Lease } from '../engine-store';
import { numberUnsent } from './unsent';

const PhoneRowSchema = z.object({ phone: z.string() });
const IdRowSchema = z.object({ id: z.number() });

/**
 * A number that opted out since sending began (STOP to an earlier message) is not sent to: its
 * message becomes unsent (`opted_out`), numbered for the unsent report like those expiry leaves.
 * The numbers are looked up through the suppression list's statements (suppressions.sql.ts).
 */
export async function withoutOptOuts(
  tx: Tx,
  campaignId: number,
  lease: Lease,
  messages: Array<ClaimedMessage & { sequence: number }>,
  now: Date,
): Promise<ClaimedBatch> {
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
}
