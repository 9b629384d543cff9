import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client';
import { sendError } from '../../http/errors';
import type { Clock } from '../../lib/time';

/** A recipient's short link: where it goes, and a click recorded on the way. */
export function createTrackedLinks(deps: { db: Db; clock: Clock }) {
  return {
    async follow(code: string, visitor: { userAgent: string | null; ip: string }): Promise<string | undefined> {
      const { rows } = await deps.db.execute<{ destination: string }>(sql`
        WITH link AS (SELECT code, destination FROM short_links WHERE code = ${code}),
             click AS (INSERT INTO link_clicks (code, clicked_at, user_agent, ip) SELECT code, ${deps.clock.now()}, ${visitor.userAgent}, ${visitor.ip} FROM link)
        SELECT destination FROM link`);
      return rows[0]?.destination;
    },
  };
}
export type TrackedLinks = ReturnType<typeof createTrackedLinks>;

/** `GET /l/{code}`: 302 to the destination (no token; a handset follows it). */
export const trackedLinkRoutes: FastifyPluginAsync<{ trackedLinks: TrackedLinks }> = async (app, { trackedLinks }) => {
  app.get<{ Params: { code: string } }>('/l/:code', { schema: { hide: true } }, async (request, reply) => {
    const code = request.params.code;
    const destination = /^[0-9A-Za-z]{4,16}$/.test(code) ? await trackedLinks.follow(code, { userAgent: request.headers['user-agent'] ?? null, ip: request.ip }) : undefined;
    if (!destination) return sendError(reply, 404, 'This link does not exist or has expired.');
    return reply.header('Cache-Control', 'no-store').redirect(destination, 302);
  });
};
