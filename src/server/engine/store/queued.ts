import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';

/** A queued message as a claim reads it (custom_fields is jsonb: parsed already). */
const QueuedMessageRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  sequence: z.number(),
  phoneNumber: z.string(),
  customFields: z.record(z.string(), z.string()),
  variant: z.number().nullable(),
});
export type Queued = z.output<typeof QueuedMessageRowSchema>;

/** A batch's queued messages, in sequence order, at most `limit`. */
export const queuedIn = (tx: Tx, campaignId: number, first: number, last: number, limit: number) =>
  rowsOf(
    tx,
    QueuedMessageRowSchema,
    sql`
        SELECT id, uuid, sequence, phone_number AS "phoneNumber", custom_fields AS "customFields", variant FROM messages
         WHERE campaign_id = ${campaignId} AND sequence BETWEEN ${first} AND ${last} AND status = 'queued'
         ORDER BY sequence LIMIT ${limit}`,
  );
