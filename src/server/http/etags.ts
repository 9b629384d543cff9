import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Access } from './auth';

type EtagRoute = { method: string | string[]; url: string; config?: { access?: Access } };

/**
 * Whether a route answers an `ETag` and honours `If-None-Match`: the reads of one resource of the API
 * (a GET open to readers whose path ends in the resource's identifier, `/campaigns/{campaign_uuid}`).
 * Lists, reports and GETs that act (switching the session's team) are left as they are.
 */
export function hasEtag(route: EtagRoute): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.includes('GET') && route.url.startsWith('/api/2.0/') && route.config?.access === 'read' && /\/(?::[^/]+|\{[^}]+\})\/?$/.test(route.url);
}

/** A strong entity tag of the answer's bytes: the same body, the same tag, in every process. */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** RFC 9110 §13.1.2: `*`, or a list of tags of which one is the current one (weak comparison: `W/` is ignored). */
export function noneMatchHolds(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const wanted = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === wanted;
  });
}

/**
 * ETags, decided here once for every route `hasEtag` names: a 200 answer carries the tag of its
 * serialized body, and a request whose `If-None-Match` holds it is answered 304 with no body (the
 * same headers, the tag included). The answer is still read and built: the tag says whether it
 * changed, it does not spare the database.
 */
export function registerEtags(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
    const route = request.routeOptions;
    if (!route.url || !hasEtag({ method: request.method, url: route.url, config: route.config })) return payload;
    const etag = etagOf(payload);
    reply.header('ETag', etag);
    if (!noneMatchHolds(request.headers['if-none-match'], etag)) return payload;
    reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return null;
  });
}
