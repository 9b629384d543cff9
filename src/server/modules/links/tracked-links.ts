import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../../db/client';
import { sendError } from '../../http/errors';
import type { Clock } from '../../lib/time';
import { readUserAgent } from '../../lib/user-agents';

const CODE = /^[0-9A-Za-z]{4,16}$/;

/** A recipient's short link: where it goes, and a click recorded on the way. */
export function createTrackedLinks(deps: { db: Db; clock: Clock }) {
  return {
    /** The destination of `code`, recording the click; `host` given, only a link made on that vanity domain. */
    async follow(code: string, visitor: { userAgent: string | null; ip: string }, host?: string): Promise<string | undefined> {
      const device = readUserAgent(visitor.userAgent);
      const onHost = host === undefined ? sql`` : sql`AND vd.domain = ${host}`;
      const { rows } = await deps.db.execute<{ destination: string }>(sql`
        WITH link AS (
          SELECT s.code, s.destination FROM short_links s
            LEFT JOIN links l ON l.id = s.link_id LEFT JOIN vanity_domains vd ON vd.id = l.vanity_domain_id
           WHERE s.code = ${code} ${onHost}),
        click AS (
          INSERT INTO link_clicks (code, clicked_at, user_agent, ip, device_type, os_version, browser_version, is_bot)
          SELECT code, ${deps.clock.now()}, ${visitor.userAgent}, ${visitor.ip}, ${device.deviceType}, ${device.osVersion}, ${device.browserVersion}, ${device.isBot} FROM link)
        SELECT destination FROM link`);
      return rows[0]?.destination;
    },

    async isVanityHost(host: string): Promise<boolean> {
      const { rows } = await deps.db.execute(sql`SELECT 1 FROM vanity_domains WHERE domain = ${host} LIMIT 1`);
      return rows.length > 0;
    },
  };
}
export type TrackedLinks = ReturnType<typeof createTrackedLinks>;

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

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || request.hostname === ownHost) return;
    const code = request.url.slice(1);
    if (!CODE.test(code)) return;
    const host = request.hostname.replace(/:\d+$/, '').toLowerCase();
    if (!(await deps.trackedLinks.isVanityHost(host))) return;
    return redirect(deps.trackedLinks, reply, code, visitor(request), host);
  });
}
