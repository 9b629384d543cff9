import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { rowsOf, type Conn } from '../../db/rows';
import type { Clock } from '../../lib/time';

export type AccountMail = { to: string; subject: string; body: string };

const DueRowSchema = z.object({ id: z.number(), to: z.string(), subject: z.string(), body: z.string(), attempts: z.number() });
export type DueMail = z.infer<typeof DueRowSchema> & AccountMail;

/**
 * The outbox of e-mails about accounts and approvals (migration 0024): written in the transaction of
 * the change that causes them, sent by the account mail worker of any process that runs workers.
 */
export function createAccountMailRepository(db: Db, clock: Clock) {
  return {
    /** Queues e-mails in the caller's transaction: they exist exactly when the change does. */
    async enqueue(conn: Conn, mails: AccountMail[]): Promise<void> {
      if (mails.length === 0) return;
      const now = clock.now();
      await conn.execute(sql`
        INSERT INTO account_emails (to_address, subject, body, created_at, next_attempt_at)
        SELECT t, s, b, ${now}, ${now}
          FROM unnest(${sql.param(mails.map((mail) => mail.to))}::text[], ${sql.param(mails.map((mail) => mail.subject))}::text[],
                      ${sql.param(mails.map((mail) => mail.body))}::text[]) AS m(t, s, b)`);
    },

    /**
     * Takes up to `limit` due e-mails for `leaseMs`: another process takes them only once that has
     * passed (an SMTP attempt times out well before).
     */
    claimDue(limit: number, leaseMs: number): Promise<DueMail[]> {
      const now = clock.now();
      return rowsOf(
        db,
        DueRowSchema,
        sql`
        UPDATE account_emails e SET next_attempt_at = ${new Date(now.getTime() + leaseMs)}, leased_until = ${new Date(now.getTime() + leaseMs)}, attempts = e.attempts + 1
         WHERE e.id IN (SELECT id FROM account_emails WHERE sent_at IS NULL AND given_up_at IS NULL AND next_attempt_at <= ${now}
                         ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING e.id::int AS id, e.to_address AS "to", e.subject, e.body, e.attempts`,
      );
    },

    /** Sent: the body (it may hold a single-use link) is not kept. */
    async sent(id: number): Promise<void> {
      await db.execute(sql`UPDATE account_emails SET sent_at = ${clock.now()}, body = '', last_error = NULL, leased_until = NULL WHERE id = ${id}`);
    },

    /** Not sent: tried again at `retryAt`, or given up (and its body dropped) when that is null. */
    async failed(id: number, error: string, retryAt: Date | null): Promise<void> {
      await db.execute(
        retryAt
          ? sql`UPDATE account_emails SET next_attempt_at = ${retryAt}, last_error = ${error}, leased_until = NULL WHERE id = ${id}`
          : sql`UPDATE account_emails SET given_up_at = ${clock.now()}, body = '', last_error = ${error}, leased_until = NULL WHERE id = ${id}`,
      );
    },
  };
}
export type AccountMailRepository = ReturnType<typeof createAccountMailRepository>;
