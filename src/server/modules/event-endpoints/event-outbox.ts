import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { arrayParam } from '../../db/arrays';
import { MomentSchema, rowsOf } from '../../db/rows';
import type { Clock } from '../../lib/time';
import type { AccountMailRepository } from '../account-mail/account-mail.repository';

/** An event as its trigger wrote it (migration 0034). */
const OutboxRowSchema = z.object({ id: z.number(), team_id: z.number(), type: z.string(), data: z.record(z.string(), z.unknown()), occurred_at: MomentSchema });
type OutboxRow = z.output<typeof OutboxRowSchema>;
const ListeningRowSchema = z.object({ id: z.number(), team_id: z.number(), events: z.array(z.string()) });

const DueRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  endpoint_id: z.number(),
  type: z.string(),
  payload: z.unknown(),
  attempts: z.number(),
  retry_until: MomentSchema,
  url: z.string(),
  headers: z.record(z.string(), z.string()),
  secret_encrypted: z.instanceof(Buffer),
  previous_secret_encrypted: z.instanceof(Buffer).nullable(),
  previous_secret_until: MomentSchema.nullable(),
});
export type DueDelivery = z.output<typeof DueRowSchema>;
const DisabledRowSchema = z.object({ uuid: z.string(), url: z.string(), team: z.string(), email: z.string().nullable(), last_error: z.string().nullable() });

/** The body of a call: the event type, when it happened (RFC 3339, UTC), and its data. */
export type EventPayload = { type: string; timestamp: string; data: Record<string, unknown> };
type NewDelivery = { endpointId: number; type: string; payload: EventPayload; itemCount: number };
export type AttemptOutcome = { statusCode: number | null; latencyMs: number; error: string | null };

/** After this long failing without a success, an endpoint is disabled (and its creator told). */
export const DISABLE_AFTER_MS = 24 * 3_600_000;
/** How long a delivery is retried, from its first attempt (or a redelivery). */
export const RETRY_FOR_MS = 24 * 3_600_000;

/**
 * Message events of one type and campaign, from several statements, as calls of at most `batchSize`
 * messages each; every other event is a call of its own.
 */
export function deliveriesOf(
  events: OutboxRow[],
  endpoints: Array<z.output<typeof ListeningRowSchema>>,
  batchSize: number,
  enrich: (event: OutboxRow) => Record<string, unknown>,
): NewDelivery[] {
  const deliveries: NewDelivery[] = [];
  const merged = new Map<string, { endpointId: number; type: string; at: Date; campaign: unknown; messages: unknown[] }>();
  for (const event of events) {
    for (const endpoint of endpoints) {
      if (endpoint.team_id !== event.team_id || !endpoint.events.includes(event.type)) continue;
      if (event.type.startsWith('message.')) {
        const campaign = event.data.campaign as { uuid: string };
        const key = `${endpoint.id} ${event.type} ${campaign.uuid}`;
        const group = merged.get(key) ?? { endpointId: endpoint.id, type: event.type, at: event.occurred_at, campaign, messages: [] };
        group.messages.push(...(event.data.messages as unknown[]));
        merged.set(key, group);
      } else {
        deliveries.push({
          endpointId: endpoint.id,
          type: event.type,
          payload: { type: event.type, timestamp: event.occurred_at.toISOString(), data: enrich(event) },
          itemCount: 1,
        });
      }
    }
  }
  for (const group of merged.values()) {
    for (let start = 0; start < group.messages.length; start += batchSize) {
      const messages = group.messages.slice(start, start + batchSize);
      deliveries.push({
        endpointId: group.endpointId,
        type: group.type,
        payload: { type: group.type, timestamp: group.at.toISOString(), data: { campaign: group.campaign, messages } },
        itemCount: messages.length,
      });
    }
  }
  return deliveries;
}

/**
 * The delivery side of event endpoints: events move from the outbox to deliveries in one transaction
 * (a crash leaves them in the outbox), deliveries are taken for a lease fenced by their attempt
 * count, and each attempt's outcome is recorded with its consequences (retry, give up, disable).
 */
export function createEventOutbox(deps: { db: Db; clock: Clock; accountMail: AccountMailRepository; publicUrl: string }) {
  const { db, clock } = deps;

  const insertDeliveries = async (conn: Db | Tx, deliveries: NewDelivery[], now: Date): Promise<string[]> => {
    if (deliveries.length === 0) return [];
    const rows = await rowsOf(
      conn,
      z.object({ uuid: z.string() }),
      sql`
      INSERT INTO event_deliveries (endpoint_id, type, payload, item_count, next_attempt_at, retry_until, created_at)
      SELECT e, t, p::jsonb, n, ${now}, ${new Date(now.getTime() + RETRY_FOR_MS)}, ${now}
        FROM unnest(${arrayParam(deliveries.map((d) => d.endpointId))}::bigint[], ${arrayParam(deliveries.map((d) => d.type))}::text[],
                    ${arrayParam(deliveries.map((d) => JSON.stringify(d.payload)))}::text[], ${arrayParam(deliveries.map((d) => d.itemCount))}::int[]) AS x(e, t, p, n)
      RETURNING uuid`,
    );
    return rows.map((row) => row.uuid);
  };

  return {
    /**
     * Takes up to `limit` events from the outbox and writes their deliveries, in one transaction;
     * returns how many events it took.
     */
    fanOut(limit: number, batchSize: number, enrich: (event: OutboxRow) => Record<string, unknown>): Promise<number> {
      return db.transaction(async (tx) => {
        const events = await rowsOf(
          tx,
          OutboxRowSchema,
          sql`
          DELETE FROM event_outbox WHERE id IN (SELECT id FROM event_outbox ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING id::int AS id, team_id::int AS team_id, type, data, occurred_at`,
        );
        if (events.length === 0) return 0;
        events.sort((a, b) => a.id - b.id);
        const teams = [...new Set(events.map((event) => event.team_id))];
        const endpoints = await rowsOf(
          tx,
          ListeningRowSchema,
          sql`SELECT id::int AS id, team_id::int AS team_id, events FROM event_endpoints WHERE enabled AND team_id = ANY(${arrayParam(teams)}::bigint[]) ORDER BY id`,
        );
        await insertDeliveries(tx, deliveriesOf(events, endpoints, batchSize, enrich), clock.now());
        return events.length;
      });
    },

    /** A delivery written now (a test), due at once; its uuid. */
    async add(delivery: NewDelivery): Promise<string> {
      const [uuid] = await insertDeliveries(db, [delivery], clock.now());
      return uuid!;
    },

    /**
     * Takes up to `limit` due deliveries of enabled endpoints (or the one named) for `leaseMs`: another
     * worker takes one only after that, and its outcome is then recorded only by the attempt it made.
     */
    claimDue(limit: number, leaseMs: number, onlyUuid?: string): Promise<DueDelivery[]> {
      const now = clock.now();
      // An endpoint that is failing gets one call a round (the others wait their turn), so a receiver
      // that is down does not hold every worker for its timeout while the healthy ones wait.
      const which = onlyUuid
        ? sql`d2.uuid = ${onlyUuid} AND d2.status = 'pending'`
        : sql`d2.id IN (
            SELECT id FROM (
              SELECT d3.id, e.failing_since, row_number() OVER (PARTITION BY d3.endpoint_id ORDER BY d3.next_attempt_at, d3.id) AS n
                FROM event_deliveries d3 JOIN event_endpoints e ON e.id = d3.endpoint_id AND e.enabled
               WHERE d3.status = 'pending' AND d3.next_attempt_at <= ${now}) ranked
             WHERE n <= CASE WHEN failing_since IS NULL THEN ${limit} ELSE 1 END)`;
      return rowsOf(
        db,
        DueRowSchema,
        sql`
        WITH taken AS (
          UPDATE event_deliveries d SET attempts = d.attempts + 1, next_attempt_at = ${new Date(now.getTime() + leaseMs)}, leased_until = ${new Date(now.getTime() + leaseMs)}
           WHERE d.id IN (SELECT d2.id FROM event_deliveries d2 WHERE ${which} ORDER BY d2.next_attempt_at, d2.id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING d.id, d.uuid, d.endpoint_id, d.type, d.payload, d.attempts, d.retry_until)
        SELECT t.id::int AS id, t.uuid, t.endpoint_id::int AS endpoint_id, t.type, t.payload, t.attempts, t.retry_until, e.url, e.headers,
               e.secret_encrypted, e.previous_secret_encrypted, e.previous_secret_until
          FROM taken t JOIN event_endpoints e ON e.id = t.endpoint_id ORDER BY t.id`,
      );
    },

    /**
     * Records an attempt (only the one the delivery's `attempts` says is current): delivered on a 2xx;
     * otherwise retried at `retryAt`, or failed when that is null. A success clears the endpoint's
     * failure record; a failure starts it, and one 24 hours old disables the endpoint and e-mails its
     * creator, in the same transaction. Tests (`counts: false`) leave the endpoint as it is.
     */
    record(delivery: Pick<DueDelivery, 'id' | 'endpoint_id' | 'attempts'>, outcome: AttemptOutcome, retryAt: Date | null, counts: boolean): Promise<boolean> {
      const now = clock.now();
      const delivered = outcome.error === null;
      return db.transaction(async (tx) => {
        const written = await tx.execute(sql`
          UPDATE event_deliveries SET status = ${delivered ? 'delivered' : retryAt ? 'pending' : 'failed'},
                 next_attempt_at = ${retryAt ?? now}, finished_at = ${delivered || !retryAt ? now : null}, leased_until = NULL,
                 last_status_code = ${outcome.statusCode}, last_error = ${outcome.error}
           WHERE id = ${delivery.id} AND attempts = ${delivery.attempts} AND status = 'pending'`);
        if (written.rowCount !== 1) return false;
        await tx.execute(sql`
          INSERT INTO event_delivery_attempts (delivery_id, status_code, latency_ms, error, created_at)
          VALUES (${delivery.id}, ${outcome.statusCode}, ${outcome.latencyMs}, ${outcome.error}, ${now})`);
        if (!counts) return true;
        if (delivered) {
          await tx.execute(sql`UPDATE event_endpoints SET failing_since = NULL WHERE id = ${delivery.endpoint_id} AND failing_since IS NOT NULL`);
          return true;
        }
        // One statement (a row changed twice in one statement keeps only one change): the failure
        // record starts, or, 24 hours old, the endpoint is disabled; `disabled` says it happened now.
        const cutoff = new Date(now.getTime() - DISABLE_AFTER_MS);
        const disabled = await rowsOf(
          tx,
          DisabledRowSchema,
          sql`
          WITH before AS (SELECT id, coalesce(enabled AND failing_since <= ${cutoff}, false) AS disabling FROM event_endpoints WHERE id = ${delivery.endpoint_id} FOR UPDATE),
          changed AS (
            UPDATE event_endpoints e SET failing_since = coalesce(e.failing_since, ${now}),
                   enabled = e.enabled AND NOT b.disabling,
                   disabled_reason = CASE WHEN b.disabling THEN ${`Every call failed for 24 hours; the last: ${outcome.error}`} ELSE e.disabled_reason END,
                   updated_at = CASE WHEN b.disabling THEN ${now} ELSE e.updated_at END
              FROM before b WHERE e.id = b.id
            RETURNING e.uuid, e.url, e.team_id, e.created_by, b.disabling)
          SELECT c.uuid, c.url, t.name AS team, u.email, ${outcome.error}::text AS last_error
            FROM changed c JOIN teams t ON t.id = c.team_id LEFT JOIN users u ON u.id = c.created_by WHERE c.disabling`,
        );
        const mails = disabled.flatMap((row) =>
          row.email
            ? [
                {
                  to: row.email,
                  subject: `Herald disabled an event endpoint of ${row.team}`,
                  body:
                    `Every call to the event endpoint ${row.url} (team ${row.team}) has failed for 24 hours, so Herald has disabled it.\n\n` +
                    `The last error: ${row.last_error ?? 'unknown'}.\n\n` +
                    `Events are no longer recorded for it. Deliveries still pending are sent once you enable it again:\n` +
                    `${deps.publicUrl.replace(/\/+$/, '')}/event-endpoints/${row.uuid}\n`,
                },
              ]
            : [],
        );
        await deps.accountMail.enqueue(tx, mails);
        return true;
      });
    },

    /** Deletes deliveries delivered more than 7 days ago and failed ones after 30; how many. */
    async sweep(): Promise<number> {
      const now = clock.now().getTime();
      const result = await db.execute(sql`
        DELETE FROM event_deliveries WHERE finished_at IS NOT NULL
           AND finished_at < CASE WHEN status = 'delivered' THEN ${new Date(now - 7 * 86_400_000)}::timestamptz ELSE ${new Date(now - 30 * 86_400_000)}::timestamptz END`);
      return result.rowCount ?? 0;
    },
  };
}
export type EventOutbox = ReturnType<typeof createEventOutbox>;
