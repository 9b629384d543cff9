import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/client';
import { firstRowOf } from '../db/rows';
import { ConflictError, ValidationError } from '../lib/errors';
import type { Clock } from '../lib/time';

/** How long the first answer to a key is kept and replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** How long a running request holds its key; past it (its process died), a retry of the same request runs it again. */
export const IDEMPOTENCY_LOCK_MS = 5 * 60_000;
/** Printable ASCII without spaces, as Stripe and the IETF draft's examples use (a UUID is the usual choice). */
const KEY = /^[\x21-\x7e]{1,255}$/;
/** The headers of an answer that are replayed with it. */
const KEPT_HEADERS = ['content-type', 'location'] as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's Idempotency-Key, once claimed (`replayed`: its answer is the stored one). */
    idempotency: { key: string; replayed: boolean } | null;
  }
}

/** Documented on every POST of the API (added to each route's schema as it is registered). */
export const IdempotencyHeadersSchema = z.looseObject({
  'idempotency-key': z
    .string()
    .optional()
    .describe(
      'Makes the POST safe to retry: the first answer to a key is kept 24 hours and replayed (with `Idempotent-Replayed: true`) for the same key and request, so a retried create never makes a second one. 1–255 printable ASCII characters without spaces, such as a UUID. The same key with another request is 422; while the first request with the key is still running, 409.',
    ),
});

/** JSON with its object keys sorted: two bodies that differ only in key order are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What makes two requests the same: method, route, its parameters, the query and the body. A
 * streamed upload (an import) is known by its type and length, as it cannot be read twice.
 */
function fingerprintOf(request: FastifyRequest): Buffer {
  const body =
    request.body instanceof Readable ? `stream ${request.headers['content-type'] ?? ''} ${request.headers['content-length'] ?? ''}` : canonical(request.body);
  return createHash('sha256')
    .update([request.method, request.routeOptions.url, canonical(request.params), canonical(request.query), body].join('\n'))
    .digest();
}

const StoredRowSchema = z.object({
  fingerprint: z.instanceof(Buffer),
  response_status: z.number().nullable(),
  response_headers: z.record(z.string(), z.string()).nullable(),
  response_body: z.instanceof(Buffer).nullable(),
});
const ClaimedRowSchema = z.object({ claimed: z.number() });

/**
 * `Idempotency-Key` on every authenticated POST of the API (docs/api-conventions.md): the first
 * request with a key claims it; its answer is stored when it is sent and replayed to a retry of the
 * same request for 24 hours, per user and team. A 5xx, 409, 423 or 429 answer is not kept (the
 * retry runs again), nor is a request refused before its handler (401, 403, a body that does not
 * validate). Held in PostgreSQL, so it holds across every API process.
 */
export function registerIdempotency(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  const { db, clock } = deps;
  app.decorateRequest('idempotency', null);

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST') || !route.url.startsWith('/api/2.0/') || route.config?.access === 'public') return;
    route.schema = { ...route.schema, headers: IdempotencyHeadersSchema };
  });

  const replay = (reply: FastifyReply, row: z.output<typeof StoredRowSchema>) => {
    reply.code(row.response_status!);
    for (const [name, value] of Object.entries(row.response_headers ?? {})) reply.header(name, value);
    reply.header('Idempotent-Replayed', 'true');
    return reply.send(row.response_body ?? undefined);
  };

  app.addHook('preHandler', async (request, reply) => {
    const given = request.headers['idempotency-key'];
    if (given === undefined || request.method !== 'POST' || !request.auth || !request.routeOptions.url?.startsWith('/api/2.0/')) return;
    if (typeof given !== 'string' || !KEY.test(given))
      throw ValidationError.field('Idempotency-Key', 'The Idempotency-Key header must be 1 to 255 printable ASCII characters without spaces (a UUID, say).');
    const { userId, teamId } = request.auth;
    const now = clock.now();
    const fingerprint = fingerprintOf(request);
    // A new key; or one whose 24 hours are over; or the same request again after the process that
    // held it died (its lock lapsed with no answer stored).
    const claimed = await firstRowOf(
      db,
      ClaimedRowSchema,
      sql`
      INSERT INTO idempotency_keys (user_id, team_id, key, fingerprint, locked_until, created_at, expires_at)
      VALUES (${userId}, ${teamId}, ${given}, ${fingerprint}, ${new Date(now.getTime() + IDEMPOTENCY_LOCK_MS)}, ${now}, ${new Date(now.getTime() + IDEMPOTENCY_TTL_MS)})
      ON CONFLICT (user_id, team_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, locked_until = EXCLUDED.locked_until, response_status = NULL, response_headers = NULL,
             response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
       WHERE idempotency_keys.expires_at <= ${now}
          OR (idempotency_keys.response_status IS NULL AND idempotency_keys.locked_until <= ${now} AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
      RETURNING 1 AS claimed`,
    );
    if (claimed) {
      request.idempotency = { key: given, replayed: false };
      return;
    }
    const stored = await firstRowOf(
      db,
      StoredRowSchema,
      sql`
      SELECT fingerprint, response_status, response_headers, response_body FROM idempotency_keys
       WHERE user_id = ${userId} AND team_id = ${teamId} AND key = ${given}`,
    );
    if (!stored || (stored.response_status === null && stored.fingerprint.equals(fingerprint)))
      throw new ConflictError('A request with this Idempotency-Key is still being processed. Try again once it has finished to get its answer.');
    if (!stored.fingerprint.equals(fingerprint))
      throw ValidationError.field(
        'Idempotency-Key',
        'This Idempotency-Key was used for another request in the last 24 hours. Use a new key for a new request.',
      );
    request.idempotency = { key: given, replayed: true };
    return replay(reply, stored);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim || claim.replayed || !request.auth) return payload;
    const { userId, teamId } = request.auth;
    const status = reply.statusCode;
    const keep =
      status < 500 && status !== 409 && status !== 423 && status !== 429 && (typeof payload === 'string' || Buffer.isBuffer(payload) || payload == null);
    if (!keep) {
      // Released: a retry runs again (a fault, a conflict of the moment, a limit, or an answer that streams).
      await db.execute(sql`DELETE FROM idempotency_keys WHERE user_id = ${userId} AND team_id = ${teamId} AND key = ${claim.key} AND response_status IS NULL`);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const body = payload == null ? null : Buffer.isBuffer(payload) ? payload : Buffer.from(payload as string, 'utf8');
    await db.execute(sql`
      UPDATE idempotency_keys SET response_status = ${status}, response_headers = ${JSON.stringify(headers)}::jsonb, response_body = ${body}, locked_until = NULL
       WHERE user_id = ${userId} AND team_id = ${teamId} AND key = ${claim.key} AND response_status IS NULL`);
    return payload;
  });
}

/**
 * Deletes the keys past their 24 hours, a thousand a statement: the periodic job
 * `idempotency_keys.sweep` of the job runner (jobs/herald-jobs.ts). How many.
 */
export async function sweepIdempotencyKeys(db: Db, clock: Clock): Promise<number> {
  let deleted = 0;
  for (;;) {
    const result = await db.execute(
      sql`DELETE FROM idempotency_keys WHERE ctid = ANY(ARRAY(SELECT ctid FROM idempotency_keys WHERE expires_at <= ${clock.now()} LIMIT 1000))`,
    );
    deleted += result.rowCount ?? 0;
    if ((result.rowCount ?? 0) < 1000) return deleted;
  }
}
