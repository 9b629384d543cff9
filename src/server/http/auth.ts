import type { FastifyInstance } from 'fastify';
import type { Role } from '../../shared/contract';
import { ForbiddenError, TooManyRequestsError, UnauthenticatedError } from '../lib/errors';
import type { SharedRateLimiter } from '../db/rate-counters';
import { cookiesOf, csrfHolds, SESSION_COOKIE } from './session-cookies';

/** Who is calling: the token's user, the team every query is scoped to, and what the token may do there. */
export type AuthContext = {
  userId: number;
  userUuid: string;
  /** The user's e-mail, the team's name and the token's name: for the request's log line only. */
  userEmail: string;
  teamId: number;
  teamUuid: string;
  teamName: string;
  tokenName: string;
  /** The user's role in that team. */
  role: Role;
  tokenId: number;
  /** A dashboard sign-in (`session`) or an API token (`personal`). */
  tokenKind: 'personal' | 'session';
  /** `read_only`: only GET requests. */
  scope: 'full' | 'read_only';
  /** The request a change is made in, for the audit trail (set on the request's own copy by http/audit-trail.ts). */
  request?: AuditedRequest;
};

/**
 * What the audit trail needs of the request a change is made in: its operation (the route's
 * operationId, the event's action), the caller's address, and how many events it has recorded.
 */
export type AuditedRequest = { operation: string; ip: string | null; recorded: number };

export type Authenticator = { authenticate(token: string): Promise<AuthContext | null> };

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route (ACCESS); every route under /api/2.0 declares it, or the app does not start. */
    access?: Access;
    /** A stricter per-token limit than the default (requests a minute). */
    rateLimit?: { max: number; bucket: string };
    /**
     * Not counted against the caller's address (public routes only): an SMS provider's callbacks,
     * thousands a minute from the few addresses a provider calls from, each checked by its signature
     * instead. A 429 there would lose delivery statuses (Twilio does not retry them).
     */
    notRateLimited?: true;
  }
}

/**
 * Who may call a route, declared by each route in the route table and enforced here alone:
 * - `public`: anyone, no token (signing in, the signed report download);
 * - `self`: any member, acting on their own account (sign out, switch team, their API tokens);
 * - `read`: any member, viewers included (reads, and computations that change nothing);
 * - `report`: any member: asks for a report e-mail;
 * - `edit`: editors and admins: content, audiences, campaigns;
 * - `admin`: admins only: senders, link domains, webhooks (team settings).
 */
export type Access = 'public' | 'self' | 'read' | 'report' | 'edit' | 'admin';

/** The roles each access lets through. */
const ROLES_ALLOWED: Record<Exclude<Access, 'public'>, readonly Role[]> = {
  self: ['admin', 'editor', 'viewer'],
  read: ['admin', 'editor', 'viewer'],
  report: ['admin', 'editor', 'viewer'],
  edit: ['admin', 'editor'],
  admin: ['admin'],
};

/** Why a role below `edit` or `admin` is refused (every role may call the others). */
const REFUSED: Record<'edit' | 'admin', string> = {
  edit: 'Your role in this team is viewer: you can read, and ask for reports, but not change anything. Ask an admin for the editor role.',
  admin: 'Only an admin of this team can do this. Ask an admin of the team.',
};

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const READS = new Set(['GET', 'HEAD']);

/** The request's caller; routes that are not public can rely on it. */
export function callerOf(request: { auth: AuthContext | null }): AuthContext {
  if (!request.auth) throw new UnauthenticatedError();
  return request.auth;
}

/**
 * Authentication for every /api/2.0 route not marked public — a bearer token, or the dashboard's
 * session cookie with its CSRF check on changes — then per-token rate limits shared by every
 * process (unauthenticated calls are limited per address).
 */
export function registerAuth(app: FastifyInstance, deps: { authenticator: Authenticator; limiter: SharedRateLimiter; rateLimitPerMinute: number }): void {
  app.decorateRequest('auth', null);
  // A route of the API without an access rule is a mistake caught at start, not a route open to all.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/2.0/') && route.config?.access === undefined) {
      throw new Error(`${String(route.method)} ${route.url} declares no access rule (config.access, see http/auth.ts).`);
    }
  });
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    // Only the API's own routes: an unknown path (the dashboard's catch-all) is a plain 404.
    if (!request.routeOptions.url?.startsWith('/api/2.0/')) return;
    const access = config.access!;
    if (access !== 'public') {
      // A bearer token (API clients), or else the dashboard's session cookie.
      const match = BEARER.exec(request.headers.authorization ?? '');
      const cookies = match ? {} : cookiesOf(request);
      const token = match?.[1] ?? cookies[SESSION_COOKIE];
      const auth = token ? await deps.authenticator.authenticate(token) : null;
      if (!auth) throw new UnauthenticatedError();
      // A cookie rides along with any request the browser makes, a forged form's too: a change must
      // also carry the CSRF secret only the dashboard's own page can read (double submit).
      if (!match && !READS.has(request.method) && !csrfHolds(request, cookies))
        throw new ForbiddenError('The request did not carry the CSRF token of this session. Reload the page and try again.');
      request.auth = auth;
      if (!ROLES_ALLOWED[access].includes(auth.role)) throw new ForbiddenError(REFUSED[access as 'edit' | 'admin']);
      if (auth.scope === 'read_only' && !READS.has(request.method)) throw new ForbiddenError('This API token is read-only: it can only read (GET requests).');
    }
    if (config.notRateLimited && access === 'public') return;
    const key = request.auth ? `token:${request.auth.tokenId}` : `ip:${request.ip}`;
    // Counted in PostgreSQL, so the limits hold across every API process.
    const checks = [{ key, max: deps.rateLimitPerMinute }];
    if (config.rateLimit) checks.push({ key: `${key}:${config.rateLimit.bucket}`, max: config.rateLimit.max });
    const verdict = await deps.limiter.hit(checks);
    if (!verdict.allowed) throw new TooManyRequestsError(verdict.retryAfterSeconds);
  });
}
