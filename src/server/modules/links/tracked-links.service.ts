import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { firstRowOf } from '../../db/rows';
import type { Clock } from '../../lib/time';
import { readUserAgent } from '../../lib/user-agents';

const DestinationRowSchema = z.object({ destination: z.string() });

/** A recipient's short link (a campaign's or a flow's message): where it goes, and a click recorded on the way. */
export function createTrackedLinks(deps: { db: Db; clock: Clock }) {
  return {
    /** The destination of `code`, recording the click; `host` given, only a link made on that vanity domain. */
    async follow(code: string, visitor: { userAgent: string | null; ip: string }, host?: string): Promise<string | undefined> {
      const device = readUserAgent(visitor.userAgent);
      const onHost = host === undefined ? sql`` : sql`AND vd.domain = ${host}`;
      const link = await firstRowOf(
        deps.db,
        DestinationRowSchema,
        sql`
        -- A campaign message's link (message_id) or a flow message's (outbound_reply_id): one route, one
        -- bot test, one vanity-host check for both.
        WITH link AS (
          SELECT s.code, s.destination, s.message_id, s.outbound_reply_id, m.campaign_id FROM short_links s LEFT JOIN messages m ON m.id = s.message_id
            LEFT JOIN links l ON l.id = s.link_id LEFT JOIN vanity_domains vd ON vd.id = l.vanity_domain_id
           WHERE s.code = ${code} ${onHost}),
        -- A person's first click on any of the message's links makes them a clicker (the overview's
        -- unique human clicks); a link-preview bot's fetch is a click, never a person's.
        first_human AS (
          SELECT NOT ${device.isBot} AND NOT EXISTS (
                   SELECT 1 FROM short_links s JOIN link_clicks k ON k.code = s.code
                    WHERE s.message_id = (SELECT message_id FROM link) AND NOT k.is_bot) AS yes),
        -- Clicks are numbered per campaign as they come: the clicks report pages by that number.
        counted AS (
          UPDATE campaigns SET click_count = click_count + 1, human_click_count = human_click_count + ${device.isBot ? 0 : 1},
                               human_clicker_count = human_clicker_count + (SELECT yes::int FROM first_human)
           WHERE id = (SELECT campaign_id FROM link) RETURNING id, click_count),
        click AS (
          INSERT INTO link_clicks (code, campaign_id, sequence, clicked_at, user_agent, ip, device_type, os_version, browser_version, is_bot)
          SELECT link.code, counted.id, counted.click_count, ${deps.clock.now()}, ${visitor.userAgent}, ${visitor.ip}, ${device.deviceType},
                 ${device.osVersion}, ${device.browserVersion}, ${device.isBot}
            FROM link JOIN counted ON counted.id = link.campaign_id),
        -- A flow message's click counts toward no campaign: it has no campaign and no click sequence.
        flow_click AS (
          INSERT INTO link_clicks (code, clicked_at, user_agent, ip, device_type, os_version, browser_version, is_bot)
          SELECT link.code, ${deps.clock.now()}, ${visitor.userAgent}, ${visitor.ip}, ${device.deviceType}, ${device.osVersion}, ${device.browserVersion},
                 ${device.isBot}
            FROM link WHERE link.outbound_reply_id IS NOT NULL)
        SELECT destination FROM link`,
      );
      return link?.destination;
    },

    async isVanityHost(host: string): Promise<boolean> {
      const { rows } = await deps.db.execute(sql`SELECT 1 FROM vanity_domains WHERE domain = ${host} LIMIT 1`);
      return rows.length > 0;
    },
  };
}
export type TrackedLinks = ReturnType<typeof createTrackedLinks>;
