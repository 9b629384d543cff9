import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow } from '../../db/pages';
import { firstRowOf, MomentSchema, oneRowOf, rowsOf, type Conn } from '../../db/rows';
import type { Clock } from '../../lib/time';

const ShopConnectionRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  teamId: z.number(),
  name: z.string(),
  platform: z.enum(['shopify', 'woocommerce']),
  secretEncrypted: z.instanceof(Buffer),
  lastOrderAt: MomentSchema.nullable(),
  createdAt: MomentSchema,
  updatedAt: MomentSchema,
});
export type ShopConnectionRow = z.output<typeof ShopConnectionRowSchema>;

const COLUMNS = sql.raw(`id::int AS id, uuid, team_id::int AS "teamId", name, platform, secret_encrypted AS "secretEncrypted",
  last_order_at AS "lastOrderAt", created_at AS "createdAt", updated_at AS "updatedAt"`);

export type ShopConnectionChanges = Partial<Pick<ShopConnectionRow, 'name' | 'platform' | 'secretEncrypted'>>;

/** A team's shop connections, as the API reads and edits them, and as their webhooks find them. */
export function createShopConnectionsRepository(db: Db, clock: Clock) {
  return {
    list(teamId: number, window: PageWindow): Promise<Page<ShopConnectionRow>> {
      return readPage({
        rows: rowsOf(
          db,
          ShopConnectionRowSchema,
          sql`SELECT ${COLUMNS} FROM shop_connections WHERE team_id = ${teamId} ORDER BY created_at DESC, id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM shop_connections WHERE team_id = ${teamId}`),
      });
    },

    /** The team's connection; `lock`: held until `conn`'s transaction ends (the "before" of a change). */
    find: (teamId: number, uuid: string, conn: Conn = db, lock = false) =>
      firstRowOf(
        conn,
        ShopConnectionRowSchema,
        sql`SELECT ${COLUMNS} FROM shop_connections WHERE team_id = ${teamId} AND uuid = ${uuid}${lock ? sql` FOR UPDATE` : sql``}`,
      ),

    /** Any team's connection by its uuid: a webhook's address names no team, its signature proves it. */
    findForWebhook: (uuid: string) => firstRowOf(db, ShopConnectionRowSchema, sql`SELECT ${COLUMNS} FROM shop_connections WHERE uuid = ${uuid}`),

    insert(conn: Conn, row: Pick<ShopConnectionRow, 'teamId' | 'name' | 'platform' | 'secretEncrypted'>): Promise<ShopConnectionRow> {
      const now = clock.now();
      return oneRowOf(
        conn,
        ShopConnectionRowSchema,
        sql`INSERT INTO shop_connections (team_id, name, platform, secret_encrypted, created_at, updated_at)
            VALUES (${row.teamId}, ${row.name}, ${row.platform}, ${row.secretEncrypted}, ${now}, ${now}) RETURNING ${COLUMNS}`,
      );
    },

    update(conn: Conn, id: number, changes: ShopConnectionChanges): Promise<ShopConnectionRow> {
      return oneRowOf(
        conn,
        ShopConnectionRowSchema,
        sql`UPDATE shop_connections SET name = coalesce(${changes.name ?? null}, name), platform = coalesce(${changes.platform ?? null}, platform),
                   secret_encrypted = coalesce(${changes.secretEncrypted ?? null}::bytea, secret_encrypted), updated_at = ${clock.now()}
             WHERE id = ${id} RETURNING ${COLUMNS}`,
      );
    },

    /** When the connection's last order came (in the transaction that recorded it). */
    async orderReceived(conn: Conn, id: number): Promise<void> {
      await conn.execute(sql`UPDATE shop_connections SET last_order_at = ${clock.now()} WHERE id = ${id}`);
    },

    async delete(conn: Conn, id: number): Promise<void> {
      await conn.execute(sql`DELETE FROM shop_connections WHERE id = ${id}`);
    },
  };
}
export type ShopConnectionsRepository = ReturnType<typeof createShopConnectionsRepository>;
