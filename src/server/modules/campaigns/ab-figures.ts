import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';

/**
 * An A/B test's figures per variant, in one scalar subquery over the campaign `campaignId` (a
 * column or a parameter): messages by status, distinct human clickers, and the orders credited to
 * its messages (`conversions`, migration 0046) with their value and the sum of each recipient's
 * squared revenue (for the variance of revenue per recipient). A JSON array, variants in order;
 * variants with no message yet are missing (the reader fills them with zeros).
 */
export function abFiguresOf(campaignId: SQL): SQL {
  return sql`(
    WITH m AS (
      SELECT variant, count(*)::int AS recipients,
             count(*) FILTER (WHERE status IN ('submitted', 'delivered'))::int AS sent,
             count(*) FILTER (WHERE status = 'delivered')::int AS delivered
        FROM messages WHERE campaign_id = ${campaignId} AND variant IS NOT NULL GROUP BY variant),
    k AS (
      -- A click names its short link, and the link its message (link_clicks.sequence numbers the clicks, not the messages).
      SELECT km.variant, count(DISTINCT km.id)::int AS clickers
        FROM link_clicks k JOIN short_links s ON s.code = k.code JOIN messages km ON km.id = s.message_id
       WHERE k.campaign_id = ${campaignId} AND NOT k.is_bot GROUP BY km.variant),
    o AS (
      SELECT om.variant, sum(per.orders)::int AS orders, sum(per.value)::float8 AS revenue, sum(per.value * per.value)::float8 AS squares
        FROM (SELECT message_id, count(*) AS orders, sum(value) AS value FROM conversions
               WHERE campaign_id = ${campaignId} AND message_id IS NOT NULL
                 -- In the team's currency only: other currencies are shown apart, never added in (docs/conversions.md).
                 AND currency = (SELECT t.currency FROM teams t JOIN campaigns tc ON tc.team_id = t.id WHERE tc.id = ${campaignId})
               GROUP BY message_id) per
        JOIN messages om ON om.id = per.message_id GROUP BY om.variant)
    SELECT coalesce(json_agg(json_build_object(
             'variant', m.variant, 'recipients', m.recipients, 'sent', m.sent, 'delivered', m.delivered,
             'humanClicks', coalesce(k.clickers, 0), 'conversions', coalesce(o.orders, 0),
             'revenue', coalesce(o.revenue, 0), 'squares', coalesce(o.squares, 0)) ORDER BY m.variant), '[]')
      FROM m LEFT JOIN k ON k.variant = m.variant LEFT JOIN o ON o.variant = m.variant)`;
}

export const VariantFiguresSchema = z.object({
  variant: z.number(),
  recipients: z.number(),
  sent: z.number(),
  delivered: z.number(),
  humanClicks: z.number(),
  conversions: z.number(),
  revenue: z.number(),
  squares: z.number(),
});
export type VariantFigures = z.output<typeof VariantFiguresSchema>;
