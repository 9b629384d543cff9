import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { sealLegacy, type StoredHeaders } from '../lib/header-secrets';
import type { SecretBox } from '../lib/secret-box';
import type { Db } from './client';
import { rowsOf } from './rows';

const HeadersRowSchema = z.object({ id: z.number(), headers: z.record(z.string(), z.string()) });

/**
 * Seals the custom header values of webhooks and event endpoints stored before values were sealed
 * (migration 0039's release): at each start, so a database restored from an older backup is sealed too.
 * Answers how many rows it sealed.
 */
export async function sealStoredHeaders(db: Db, box: SecretBox): Promise<number> {
  let sealed = 0;
  for (const table of [sql`webhooks`, sql`event_endpoints`]) {
    const rows = await rowsOf(
      db,
      HeadersRowSchema,
      sql`SELECT id::int AS id, headers FROM ${table} WHERE jsonb_typeof(headers) = 'object' AND headers <> '{}'::jsonb`,
    );
    for (const row of rows) {
      const headers: StoredHeaders | null = sealLegacy(box, row.headers);
      if (!headers) continue;
      await db.execute(
        sql`UPDATE ${table} SET headers = ${JSON.stringify(headers)}::jsonb WHERE id = ${row.id} AND headers = ${JSON.stringify(row.headers)}::jsonb`,
      );
      sealed += 1;
    }
  }
  return sealed;
}
