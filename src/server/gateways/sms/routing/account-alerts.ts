import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../db/client';
import { rowsOf } from '../../../db/rows';

/** At most one e-mail an hour per connection, however many requests its provider refuses. */
export const ALERT_EVERY_MS = 3_600_000;

const AlertedRowSchema = z.object({ connection_id: z.number() });

/**
 * Tells a team's admins by e-mail (the account e-mail outbox) that a provider refused a connection's
 * account: wrong credentials, no funds, a sender it does not allow. Their messages go on to the next
 * connection of their routes meanwhile, so nothing stops, which is why someone must be told. The
 * mark in sms_connection_states keeps it to one an hour across every sending process; the mark and
 * the e-mails are written together. Returns whether e-mails were queued.
 */
export async function alertAccountError(
  db: Db,
  connection: { id: number; uuid: string; name: string },
  error: string,
  now: Date,
  publicUrl: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const marked = await rowsOf(
      tx,
      AlertedRowSchema,
      sql`
      INSERT INTO sms_connection_states AS s (connection_id, day, alerted_at, updated_at)
      SELECT id, ${now.toISOString().slice(0, 10)}::date, ${now}, ${now} FROM sms_connections WHERE id = ${connection.id}
      ON CONFLICT (connection_id) DO UPDATE SET alerted_at = EXCLUDED.alerted_at
       WHERE s.alerted_at IS NULL OR s.alerted_at <= ${new Date(now.getTime() - ALERT_EVERY_MS)}
      RETURNING connection_id::int`,
    );
    if (marked.length === 0) return false;
    const subject = `SMS connection "${connection.name}": the provider refused the account`;
    const body = [
      `Herald could not send through the SMS connection "${connection.name}": the provider refused its account (${error}).`,
      'This usually means wrong credentials, no funds left, or a sender the account may not use.',
      'Messages go on to the next connection of their routes meanwhile, or wait when there is none.',
      '',
      `Check the connection: ${publicUrl}/sending/connections/${connection.uuid}`,
    ].join('\n');
    await tx.execute(sql`
      INSERT INTO account_emails (to_address, subject, body, created_at, next_attempt_at)
      SELECT u.email, ${subject}, ${body}, ${now}, ${now}
        FROM sms_connections c JOIN memberships m ON m.team_id = c.team_id AND m.role = 'admin' JOIN users u ON u.id = m.user_id
       WHERE c.id = ${connection.id} ORDER BY u.id`);
    return true;
  });
}
