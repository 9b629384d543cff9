import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AuthContext } from './auth';
import { OBSERVABILITY_PATHS } from './observability';

type LoggableRequest = { id: string; method: string; url: string; host?: string; ip?: string };

/**
 * How a request appears in the log (Fastify's usual fields): the URL with the signature of a signed
 * link (report downloads), the secret of an invitation link and the number in a contact's address
 * (`/contacts/{phone_number}`) blanked, so the log never holds a
 * credential, nor the number of a contact being erased. API tokens travel in a header, which is not logged at all.
 */
export function loggedRequest(request: LoggableRequest) {
  return {
    id: request.id,
    method: request.method,
    url: request.url
      .replace(/([?&]signature=)[^&#]*/gi, '$1[redacted]')
      .replace(/^(\/api\/2\.0\/invitations\/)[^/?#]+/, '$1[redacted]')
      // A contact's own address names the number: an erasure must not leave it in the log.
      .replace(/^(\/api\/2\.0\/contacts\/)[^/?#]+/, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
  };
}

/** An `X-Request-Id` a client may choose: short, and nothing a log line or a header could be bent by. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the client's `X-Request-Id` when it is a safe one, else a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Who made a request, as its log line names them: the user's e-mail, the team's name, the API token's name. */
function callerFields(auth: AuthContext | null): { user?: string; team?: string; token?: string } {
  if (!auth) return {};
  return { user: auth.userEmail, team: auth.teamName, token: auth.tokenKind === 'session' ? 'dashboard session' : auth.tokenName };
}

/**
 * One line per request, written when its answer has gone (Fastify's two lines are turned off):
 * method, URL (blanked as `loggedRequest` says), status, time and the client's address (behind
 * TRUST_PROXY, the forwarded one: `request.ip`) in the message; the request id in front; the caller's user, team and token. Liveness, readiness and metrics polls are at `debug`.
 * Every answer carries its id in `X-Request-Id`, and every error body in `error.request_id`.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const req = loggedRequest(request);
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const caller = callerFields(request.auth);
    const who = caller.user ? ` · ${caller.user} (${caller.team}, ${caller.token})` : '';
    const level = OBSERVABILITY_PATHS.has(request.url.split('?')[0]!) ? 'debug' : 'info';
    // Fastify's serializer of `req` writes `remoteAddress` from an `ip`: given only `remoteAddress`, the
    // client's address was lost from every line.
    request.log[level](
      { req: { ...req, ip: req.remoteAddress }, res: { statusCode: reply.statusCode }, responseTime: ms, ...caller },
      `${req.method} ${req.url} ${reply.statusCode} ${ms} ms from ${req.remoteAddress ?? 'unknown'}${who}`,
    );
  });
}
