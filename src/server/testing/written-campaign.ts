import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * A sent campaign of `messages` messages written straight into the database as the engine leaves
 * them (numbered from 1, submitted, one in twenty failed and the rest delivered, the custom fields
 * `first_name` and `city` of the group, a rendered body), its message count set: a report of a size the
 * engine would take minutes to send, for the reports benchmark and the tests of whole-report streams.
 * Number i is 4477 and i in 8 digits; its `first_name` is `N`i, or the i-th of `firstNames` (taken in
 * turn); `bodyPadding` characters are added to each body (larger rows). Its id and uuid.
 */
export async function writtenCampaign(
  db: Db,
  options: {
    teamId: number;
    templateUuid: string;
    /** A group of the team with the headers `first_name` and `city`: the campaign's included group, named by every message. */
    groupUuid: string;
    messages: number;
    now: Date;
    name?: string;
    firstNames?: string[];
    bodyPadding?: number;
  },
): Promise<{ id: number; uuid: string }> {
  const { messages, now } = options;
  const { rows: made } = await db.execute<{ id: number; uuid: string }>(sql`
    INSERT INTO campaigns (team_id, template_id, name, sender, scheduled_send_date, expiry_date, status, started_sending_at, finished_sending_at,
                           message_count, next_sequence, anchor_sequence)
    SELECT ${options.teamId}, t.id, ${options.name ?? 'Bench'}, 'Herald', ${now}, ${new Date(now.getTime() + 86_400_000)}, 2, ${now}, ${now},
           ${messages}, ${messages + 1}, ${messages + 1}
      FROM templates t WHERE t.uuid = ${options.templateUuid}
    RETURNING id, uuid`);
  const campaign = made[0]!;
  await db.execute(sql`
    INSERT INTO campaign_groups (campaign_id, contact_group_id, kind, position)
    SELECT ${campaign.id}, g.id, 'included', 0 FROM contact_groups g WHERE g.uuid = ${options.groupUuid}`);
  const firstName = options.firstNames ? sql`(${sql.param(options.firstNames)}::text[])[1 + i % ${options.firstNames.length}]` : sql`'N' || i`;
  await db.execute(sql`
    INSERT INTO messages (campaign_id, sequence, phone_number, custom_fields, contact_group_id, status, body, gateway_id, submitted_by, submitted_at, finished_at)
    SELECT ${campaign.id}, i, '4477' || lpad(i::text, 8, '0'), jsonb_build_object('first_name', first_name, 'city', 'Leeds'),
           (SELECT id FROM contact_groups WHERE uuid = ${options.groupUuid}),
           CASE WHEN i % 20 = 0 THEN 'failed' ELSE 'delivered' END, 'Hello ' || first_name || ', this is Herald.' || repeat('.', ${options.bodyPadding ?? 0}),
           'g' || i, 'bench', ${now}::timestamptz, ${now}::timestamptz + interval '3 seconds'
      FROM generate_series(1, ${messages}) i, LATERAL (SELECT ${firstName} AS first_name) named`);
  return campaign;
}
