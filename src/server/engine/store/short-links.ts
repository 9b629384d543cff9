import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { ClaimStore } from '../engine-store';

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
