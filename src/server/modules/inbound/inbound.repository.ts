import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { InboundActionSchema, type InboundAction, INBOUND_MESSAGE_SORT, type SortFieldOf } from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow, orderOf, type ListOrder } from '../../db/pages';
import { firstRowOf, MomentSchema, oneRowOf, rowsOf, type Conn } from '../../db/rows';

const InboundRecordSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  fromNumber: z.string(),
  body: z.string(),
  source: z.enum(['gateway', 'api']),
  keywordUuid: z.string().nullable(),
  keyword: z.string().nullable(),
  optedOut: z.boolean(),
  actions: z.array(InboundActionSchema),
  receivedAt: MomentSchema,
});
export type InboundRecord = z.output<typeof InboundRecordSchema>;

const COLUMNS = sql`m.id, m.uuid, m.from_number AS "fromNumber", m.body, m.source, k.uuid AS "keywordUuid", m.keyword,
                    m.opted_out AS "optedOut", m.actions, m.received_at AS "receivedAt"`;

/** How long a delivery key recognises the same message delivered again. */
const DELIVERY_WINDOW = '1 hour';

/** The list's `sort` (INBOUND_MESSAGE_SORT). */
const ORDER: ListOrder<SortFieldOf<typeof INBOUND_MESSAGE_SORT>> = {
  sort: INBOUND_MESSAGE_SORT,
  columns: { received_at: sql`m.received_at` },
  tiebreak: sql`m.id`,
};

export function createInboundRepository(db: Db) {
  return {
    /**
     * Claims a gateway delivery, in the transaction that stores its message: null the first time (go
     * on), else the id of the message it brought before (a redelivery: store nothing). A concurrent
     * claim of the same key waits for this transaction and then sees it.
     */
    async claimDelivery(tx: Tx, key: string, at: Date): Promise<{ storedAs: number | null } | null> {
      const { rows } = await tx.execute(sql`
        INSERT INTO inbound_deliveries (key, received_at) VALUES (${key}, ${at})
        ON CONFLICT (key) DO UPDATE SET received_at = excluded.received_at, inbound_message_id = NULL
         WHERE inbound_deliveries.received_at < excluded.received_at - ${DELIVERY_WINDOW}::interval
        RETURNING key`);
      if (rows.length > 0) return null;
      const earlier = await firstRowOf(
        tx,
        z.object({ id: z.number().nullable() }),
        sql`SELECT inbound_message_id AS id FROM inbound_deliveries WHERE key = ${key}`,
      );
      return { storedAs: earlier?.id ?? null };
    },

    async recordDelivery(tx: Tx, key: string, inboundMessageId: number): Promise<void> {
      await tx.execute(sql`UPDATE inbound_deliveries SET inbound_message_id = ${inboundMessageId} WHERE key = ${key}`);
    },

    /** Keys too old to recognise anything. */
    async forgetDeliveries(before: Date): Promise<void> {
      await db.execute(sql`DELETE FROM inbound_deliveries WHERE received_at < ${before}::timestamptz - ${DELIVERY_WINDOW}::interval`);
    },

    async insert(
      tx: Tx,
      message: {
        teamId: number | null;
        fromNumber: string;
        body: string;
        source: 'gateway' | 'api';
        keywordId: number | null;
        keyword: string | null;
        optedOut: boolean;
        receivedAt: Date;
      },
    ): Promise<number> {
      const { id } = await oneRowOf(
        tx,
        z.object({ id: z.number() }),
        sql`
        INSERT INTO inbound_messages (team_id, from_number, body, source, keyword_id, keyword, opted_out, received_at)
        VALUES (${message.teamId}, ${message.fromNumber}, ${message.body}, ${message.source}, ${message.keywordId}, ${message.keyword}, ${message.optedOut}, ${message.receivedAt})
        RETURNING id`,
      );
      return id;
    },

    async recordActions(id: number, actions: InboundAction[], tx: Tx | Db = db): Promise<void> {
      await tx.execute(sql`UPDATE inbound_messages SET actions = ${JSON.stringify(actions)}::jsonb WHERE id = ${id}`);
    },

    /** The message (in a transaction, `conn`, as it sees it). */
    find: (id: number, conn: Conn = db): Promise<InboundRecord> =>
      oneRowOf(conn, InboundRecordSchema, sql`SELECT ${COLUMNS} FROM inbound_messages m LEFT JOIN keywords k ON k.id = m.keyword_id WHERE m.id = ${id}`),

    list: (teamId: number, window: PageWindow): Promise<Page<InboundRecord>> =>
      readPage({
        rows: rowsOf(
          db,
          InboundRecordSchema,
          sql`
          SELECT ${COLUMNS} FROM inbound_messages m LEFT JOIN keywords k ON k.id = m.keyword_id
           WHERE m.team_id = ${teamId} ORDER BY ${orderOf(ORDER, window.sort)} LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM inbound_messages WHERE team_id = ${teamId}`),
      }),

    /** Stamped with the message's arrival (`at`, the clock's), so a thread shows the reply right after it. */
    async queueReply(tx: Tx, reply: { teamId: number; inboundMessageId: number; toNumber: string; sender: string; body: string; at: Date }): Promise<void> {
      await tx.execute(sql`
        INSERT INTO outbound_replies (team_id, inbound_message_id, to_number, sender, body, created_at, updated_at)
        VALUES (${reply.teamId}, ${reply.inboundMessageId}, ${reply.toNumber}, ${reply.sender}, ${reply.body}, ${reply.at}, ${reply.at})`);
    },
  };
}
export type InboundRepository = ReturnType<typeof createInboundRepository>;
