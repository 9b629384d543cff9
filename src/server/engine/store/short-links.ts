import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import type { ClaimStore } from '../engine-store';
import { newShortCode } from '../short-links';

/** Records the short links made for a batch; false when a code collided (the engine makes new ones). */
export async function insertShortLinks(db: Db, rows: Parameters<ClaimStore['insertShortLinks']>[0]): Promise<boolean> {
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
}

/**
 * `count` short codes no short link has yet, all different (a flow's advance makes them before it
 * renders its messages, in its batch's transaction). A code taken meanwhile by another transaction
 * makes `insertReplyShortLinks` answer false.
 */
export async function freeShortCodes(db: Db | Tx, count: number): Promise<string[]> {
  const codes = new Set<string>();
  for (let attempt = 0; attempt < 5; attempt++) {
    const fresh: string[] = [];
    while (codes.size + fresh.length < count) {
      const code = newShortCode();
      if (!codes.has(code) && !fresh.includes(code)) fresh.push(code);
    }
    const { rows } = await db.execute(sql`SELECT code FROM short_links WHERE code = ANY(${sql.param(fresh)}::text[])`);
    const taken = new Set(rows.map((row) => String(row.code)));
    for (const code of fresh) if (!taken.has(code)) codes.add(code);
    if (codes.size === count) return [...codes];
  }
  throw new Error('could not make unique short codes');
}

/** Records the short links of messages sent outside a campaign (a flow's); false when a code was taken meanwhile. */
export async function insertReplyShortLinks(
  db: Db | Tx,
  rows: Array<{ code: string; outboundReplyId: number; linkId: number; linkName: string; destination: string }>,
): Promise<boolean> {
  if (rows.length === 0) return true;
  const result = await db.execute(sql`
        INSERT INTO short_links (code, outbound_reply_id, link_id, link_name, destination)
        SELECT * FROM unnest(${sql.param(rows.map((r) => r.code))}::text[], ${sql.param(rows.map((r) => r.outboundReplyId))}::bigint[],
                             ${sql.param(rows.map((r) => r.linkId))}::bigint[], ${sql.param(rows.map((r) => r.linkName))}::text[],
                             ${sql.param(rows.map((r) => r.destination))}::text[])
        ON CONFLICT (code) DO NOTHING`);
  return (result.rowCount ?? 0) === rows.length;
}
