import type { FastifyInstance } from 'fastify';
import { TooManyRequestsError, UnauthenticatedError } from '../lib/errors';
import { RateLimiter } from '../lib/rate-limiter';

/** Who is calling: the token's user and the team every query is scoped to. */
export type AuthContext = {
  userId: number;
  userUuid: string;
  teamId: number;
  teamUuid: string;
  tokenId: number;
};

export type Authenticator = { authenticate(token: string): Promise<AuthContext | null> };

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** The route needs no bearer token. */
    public?: boolean;
    /** A stricter per-token limit than the default (requests a minute). */
    rateLimit?: { max: number; bucket: string };
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The request's caller; routes that are not public can rely on it. */
export function callerOf(request: { auth: AuthContext | null }): AuthContext {
  if (!request.auth) throw new UnauthenticatedError();
  return request.auth;
}

/**
 * Bearer authentication for every /api/2.0 route not marked public, then per-token rate limits
 * (unauthenticated calls are limited per address).
 */
export function registerAuth(app: FastifyInstance, deps: { authenticator: Authenticator; rateLimitPerMinute: number }): void {
  const limiter = new RateLimiter();
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    // Only the API's own routes: an unknown path (the dashboard's catch-all) is a plain 404.
    if (!request.routeOptions.url?.startsWith('/api/2.0/')) return;
    if (!config.public) {
      const match = BEARER.exec(request.headers.authorization ?? '');
      const auth = match?.[1] ? await deps.authenticator.authenticate(match[1]) : null;
      if (!auth) throw new UnauthenticatedError();
      request.auth = auth;
    }
    const key = request.auth ? `token:${request.auth.tokenId}` : `ip:${request.ip}`;
    const checks: Array<[string, number]> = [[key, deps.rateLimitPerMinute]];
    if (config.rateLimit) checks.push([`${key}:${config.rateLimit.bucket}`, config.rateLimit.max]);
    for (const [bucket, max] of checks) {
      const verdict = limiter.hit(bucket, max);
      if (!verdict.allowed) throw new TooManyRequestsError(verdict.retryAfterSeconds);
    }
  });
}
