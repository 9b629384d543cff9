import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendError } from '../../http/errors';
import { OBSERVABILITY_PATHS } from '../../http/observability';
import type { TrackedLinks } from './tracked-links.service';

const CODE = /^[0-9A-Za-z]{4,16}$/;

async function redirect(trackedLinks: TrackedLinks, reply: FastifyReply, code: string, visitor: { userAgent: string | null; ip: string }, host?: string) {
  const destination = CODE.test(code) ? await trackedLinks.follow(code, visitor, host) : undefined;
  if (!destination) return sendError(reply, 404, 'This link does not exist or has expired.');
  return reply.header('Cache-Control', 'no-store').redirect(destination, 302);
}

/**
 * `GET /l/{code}` on the service's own domain, and `GET /{code}` on a team's vanity domain (its DNS
 * points here): 302 to the destination; no token, a handset follows it.
 */
export function registerTrackedLinks(app: FastifyInstance, deps: { trackedLinks: TrackedLinks; publicUrl: string }): void {
  const ownHost = new URL(deps.publicUrl).hostname;
  const visitor = (request: { headers: { 'user-agent'?: string }; ip: string }) => ({ userAgent: request.headers['user-agent'] ?? null, ip: request.ip });

  app.get<{ Params: { code: string } }>('/l/:code', { schema: { hide: true } }, async (request, reply) =>
    redirect(deps.trackedLinks, reply, request.params.code, visitor(request)),
  );

  // Probes and scrapes reach Herald by any host name (a pod's address): they never look a vanity host up,
  // so liveness holds while the database is away.
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || request.hostname === ownHost || OBSERVABILITY_PATHS.has(request.url)) return;
    const code = request.url.slice(1);
    if (!CODE.test(code)) return;
    const host = request.hostname.replace(/:\d+$/, '').toLowerCase();
    if (!(await deps.trackedLinks.isVanityHost(host))) return;
    return redirect(deps.trackedLinks, reply, code, visitor(request), host);
  });
}
