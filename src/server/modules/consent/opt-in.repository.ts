import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { firstRowOf, MomentSchema, rowsOf, type Conn } from '../../db/rows';
import { CONSENT_SOURCES, type ConsentEvidence, type ConsentSource } from './consent.repository';

const OptInRequestRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  teamId: z.number(),
  phoneNumber: z.string(),
  state: z.enum(['pending', 'confirmed', 'expired']),
  source: z.enum(CONSENT_SOURCES),
  textShown: z.string(),
  evidence: z.record(z.string(), z.unknown()),
  keywordId: z.number().nullable(),
  groupId: z.number().nullable(),
  fields: z.record(z.string(), z.string()),
  requestedAt: MomentSchema,
  expiresAt: MomentSchema,
  decidedAt: MomentSchema.nullable(),
});
export type OptInRequestRow = z.output<typeof OptInRequestRowSchema>;

const COLUMNS = sql`id::int, uuid, team_id::int AS "teamId", phone_number AS "phoneNumber", state, source, text_shown AS "textShown", evidence,
                    keyword_id::int AS "keywordId", group_id::int AS "groupId", fields, requested_at AS "requestedAt", expires_at AS "expiresAt",
                    decided_at AS "decidedAt"`;

/**
 * Double opt-in requests through their states (pending → confirmed or expired), and what the contact
 * directory reads and erases of a number's consent. Beside consent.repository.ts, which opens the
 * requests and records consents; like it, every write runs in the transaction it is given.
 */
export function createOptInRepository(db: Db) {
  return {
    /**
     * The pending request a YES from the number answers: of the team the message reached, or, for the
     * shared short code (no team), of any team — the one asked last, as the YES most likely answers
     * the latest request. One still within its 48 hours only: a late YES confirms nothing.
     */
    async pendingFor(phoneNumber: string, teamId: number | null, now: Date): Promise<OptInRequestRow | undefined> {
      return firstRowOf(
        db,
        OptInRequestRowSchema,
        sql`SELECT ${COLUMNS} FROM opt_in_requests
             WHERE phone_number = ${phoneNumber} AND state = 'pending' AND expires_at > ${now} ${teamId === null ? sql`` : sql`AND team_id = ${teamId}`}
             ORDER BY requested_at DESC, id DESC LIMIT 1`,
      );
    },

    /** Confirms the request in `tx` if it is still pending and within its time (a concurrent YES or the expiry may have taken it). */
    async confirm(tx: Tx, id: number, now: Date): Promise<boolean> {
      const { rows } = await tx.execute(sql`
        UPDATE opt_in_requests SET state = 'confirmed', decided_at = ${now}
         WHERE id = ${id} AND state = 'pending' AND expires_at > ${now} RETURNING id`);
      return rows.length > 0;
    },

    /** STOP while a request waits: the request expires with it (the number said no). */
    async expireOf(tx: Tx, teamId: number, phoneNumber: string, now: Date): Promise<number> {
      const result = await tx.execute(sql`
        UPDATE opt_in_requests SET state = 'expired', decided_at = ${now}
         WHERE team_id = ${teamId} AND phone_number = ${phoneNumber} AND state = 'pending'`);
      return result.rowCount ?? 0;
    },

    /** The expiry job: every pending request past its 48 hours becomes expired. */
    async expireDue(now: Date): Promise<number> {
      const result = await db.execute(sql`
        UPDATE opt_in_requests SET state = 'expired', decided_at = expires_at WHERE state = 'pending' AND expires_at <= ${now}`);
      return result.rowCount ?? 0;
    },

    /** The teams waiting for the number's YES: a STOP to the shared short code reaches them too. */
    async teamsPending(phoneNumber: string): Promise<number[]> {
      const rows = await rowsOf(
        db,
        z.object({ teamId: z.number() }),
        sql`SELECT DISTINCT team_id::int AS "teamId" FROM opt_in_requests WHERE phone_number = ${phoneNumber} AND state = 'pending' ORDER BY 1`,
      );
      return rows.map((row) => row.teamId);
    },

    /** Whether the team holds a consent of the number: a keyword from a number with one is no sign-up. */
    async hasConsent(teamId: number, phoneNumber: string, conn: Conn = db): Promise<boolean> {
      const row = await firstRowOf(
        conn,
        z.object({ one: z.number() }),
        sql`SELECT 1 AS one FROM consent_records WHERE team_id = ${teamId} AND phone_number = ${phoneNumber} LIMIT 1`,
      );
      return row !== undefined;
    },

    /** Whether the team holds a checkout consent of the number in which the shop said the same (`sms_marketing_consent` equal). */
    async hasCheckoutConsent(conn: Conn, teamId: number, phoneNumber: string, said: Record<string, string | null>): Promise<boolean> {
      const row = await firstRowOf(
        conn,
        z.object({ one: z.number() }),
        sql`SELECT 1 AS one FROM consent_records
             WHERE team_id = ${teamId} AND phone_number = ${phoneNumber} AND source = 'checkout'
               AND evidence -> 'sms_marketing_consent' = ${JSON.stringify(said)}::jsonb LIMIT 1`,
      );
      return row !== undefined;
    },

    /** The numbers of `phoneNumbers` the team holds no consent of. */
    async withoutConsent(conn: Conn, teamId: number, phoneNumbers: string[]): Promise<string[]> {
      if (phoneNumbers.length === 0) return [];
      const rows = await rowsOf(
        conn,
        z.object({ phoneNumber: z.string() }),
        sql`SELECT DISTINCT phone AS "phoneNumber" FROM unnest(${sql.param(phoneNumbers)}::text[]) AS t(phone)
             WHERE NOT EXISTS (SELECT 1 FROM consent_records c WHERE c.team_id = ${teamId} AND c.phone_number = t.phone)`,
      );
      return rows.map((row) => row.phoneNumber);
    },

    /**
     * One consent per number (the API's and the dashboard's writes), in one statement however many
     * numbers; `tokenId`: the API token that wrote them, whose uuid joins the evidence.
     */
    async recordMany(
      tx: Tx,
      consent: { teamId: number; phoneNumbers: string[]; source: ConsentSource; at: Date; textShown: string; evidence: ConsentEvidence; tokenId?: number },
    ): Promise<number> {
      if (consent.phoneNumbers.length === 0) return 0;
      const token =
        consent.tokenId === undefined
          ? sql`'{}'::jsonb`
          : sql`COALESCE((SELECT jsonb_build_object('token_uuid', uuid) FROM api_tokens WHERE id = ${consent.tokenId}), '{}'::jsonb)`;
      const result = await tx.execute(sql`
        INSERT INTO consent_records (team_id, phone_number, source, at, text_shown, evidence)
        SELECT ${consent.teamId}, phone, ${consent.source}, ${consent.at}, ${consent.textShown}, ${JSON.stringify(consent.evidence)}::jsonb || ${token}
          FROM unnest(${sql.param(consent.phoneNumbers)}::text[]) AS t(phone)`);
      return result.rowCount ?? 0;
    },

    /** A number's requests in a team, oldest first (the export; the last is the contact page's state). */
    async requestsOf(conn: Conn, teamId: number, phoneNumber: string): Promise<OptInRequestRow[]> {
      return rowsOf(
        conn,
        OptInRequestRowSchema,
        sql`SELECT ${COLUMNS} FROM opt_in_requests WHERE team_id = ${teamId} AND phone_number = ${phoneNumber} ORDER BY requested_at, id`,
      );
    },

    /** Whether the team holds any consent record or request of the number (the directory's "holds something"). */
    async holds(conn: Conn, teamId: number, phoneNumber: string): Promise<boolean> {
      const row = await firstRowOf(
        conn,
        z.object({ one: z.number() }),
        sql`SELECT 1 AS one WHERE EXISTS (SELECT 1 FROM consent_records WHERE team_id = ${teamId} AND phone_number = ${phoneNumber})
                               OR EXISTS (SELECT 1 FROM opt_in_requests WHERE team_id = ${teamId} AND phone_number = ${phoneNumber})`,
      );
      return row !== undefined;
    },

    /** Erasure: the number's consent records and requests deleted, in the erasure's transaction. */
    async erase(tx: Tx, teamId: number, phoneNumber: string): Promise<{ records: number; requests: number }> {
      const records = await tx.execute(sql`DELETE FROM consent_records WHERE team_id = ${teamId} AND phone_number = ${phoneNumber}`);
      const requests = await tx.execute(sql`DELETE FROM opt_in_requests WHERE team_id = ${teamId} AND phone_number = ${phoneNumber}`);
      return { records: records.rowCount ?? 0, requests: requests.rowCount ?? 0 };
    },
  };
}
export type OptInRepository = ReturnType<typeof createOptInRepository>;
