import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { MomentSchema, rowsOf } from '../../db/rows';
import { QuietHoursSchema } from '../../../shared/contract';
import type { SendingCampaign } from '../engine-store';

/** A sending campaign: its timestamps as PostgreSQL's text, those of its pauses as JSON text. */
const SendingRowSchema = z.object({
  id: z.number(),
  teamId: z.number(),
  throttled: z.boolean(),
  scheduledFinishDate: MomentSchema.nullable(),
  expiryDate: MomentSchema,
  sender: z.string(),
  body: z.string(),
  anchor: MomentSchema,
  sentSinceAnchor: z.number(),
  queued: z.number(),
  pauses: z.array(z.object({ start: MomentSchema, end: MomentSchema })),
  quiet: QuietHoursSchema.nullable(),
  zone: z.string().nullable(),
  links: z.record(z.string(), z.object({ id: z.number(), destination: z.string(), domain: z.string().nullable() })),
  variants: z
    .array(
      z.object({
        sender: z.string(),
        body: z.string(),
        links: z.record(z.string(), z.object({ id: z.number(), destination: z.string(), domain: z.string().nullable() })),
      }),
    )
    .nullable(),
});

/** A template's links by name (`template` a column), as `links` and each variant's carry them. */
const linksOf = (template: ReturnType<typeof sql>) => sql`
  coalesce((SELECT json_object_agg(l.name, json_build_object('id', l.id, 'destination', l.destination, 'domain', vd.domain))
              FROM links l JOIN vanity_domains vd ON vd.id = l.vanity_domain_id WHERE l.template_id = ${template}), '{}')`;

/** Sending campaigns not paused by hand, with what they need to send a tick; quiet hours in `defaultZone` for a team without its own. */
export async function sendingCampaigns(db: Db, defaultZone: string): Promise<SendingCampaign[]> {
  const rows = await rowsOf(
    db,
    SendingRowSchema,
    sql`
        SELECT c.id, c.team_id::int AS "teamId", c.throttled, c.scheduled_finish_date AS "scheduledFinishDate", c.expiry_date AS "expiryDate", c.sender, t.body,
               greatest(c.started_sending_at, c.resumed_at) AS anchor,
               c.next_sequence - c.anchor_sequence AS "sentSinceAnchor",
               -- An A/B test's audience held until its decision counts as queued, so a throttled plan sends the test at its pace.
               c.message_count - c.next_sequence + 1 + CASE WHEN c.ab_test IS NOT NULL AND c.ab_winner IS NULL THEN greatest(0, coalesce(c.audience_estimate, 0) - c.message_count) ELSE 0 END
                 + coalesce((SELECT sum(b.last_sequence - b.first_sequence + 1) FROM send_batches b WHERE b.campaign_id = c.id), 0)::int AS queued,
               coalesce((SELECT json_agg(json_build_object('start', p.start_at, 'end', p.end_at)) FROM campaign_pauses p WHERE p.campaign_id = c.id), '[]') AS pauses,
               CASE WHEN NOT c.ignore_quiet_hours THEN tm.quiet_hours END AS quiet, tm.time_zone AS zone,
               ${linksOf(sql`c.template_id`)} AS links,
               (SELECT json_agg(json_build_object('sender', coalesce(v.sender, c.sender), 'body', vt.body, 'links', ${linksOf(sql`v.template_id`)}) ORDER BY v.position)
                  FROM campaign_variants v JOIN templates vt ON vt.id = v.template_id WHERE v.campaign_id = c.id) AS variants
          FROM campaigns c JOIN templates t ON t.id = c.template_id JOIN teams tm ON tm.id = c.team_id
         WHERE c.status = 1 AND c.manually_paused IS NOT TRUE AND c.expired_at IS NULL AND c.stopped_at IS NULL
         -- Throttled campaigns first: each asks only for its plan's share and has a finish time to keep.
         ORDER BY c.throttled DESC, c.started_sending_at, c.id`,
  );
  return rows.map(({ quiet, zone, ...row }) => ({
    ...row,
    pauses: row.pauses.map((p) => ({ start: p.start.getTime(), end: p.end.getTime() })),
    quiet: quiet ? { hours: quiet, zone: zone ?? defaultZone } : null,
  }));
}
