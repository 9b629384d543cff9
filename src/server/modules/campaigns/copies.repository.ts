import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/client';
import { recipientsOf } from '../../db/audience';
import { oneRowOf } from '../../db/rows';

/** The largest audience a statement reads whole (recipientsOf reads a chunk after a number with a limit). */
const WHOLE = 2_147_483_647;

const AudienceRowSchema = z.object({ after: z.string().nullable() });
const GroupRowSchema = z.object({ id: z.number(), uuid: z.string(), contacts: z.number() });

/** The SQL of campaign copies (copies.ts): a campaign's segments copied, and the group of the recipients it did not reach. */
export const campaignCopies = {
  /** The segments of `from` (issue 35's `campaign_segments`), in their order, given to `to` as well. */
  async copySegments(tx: Tx, from: number, to: number): Promise<void> {
    await tx.execute(sql`
      INSERT INTO campaign_segments (campaign_id, segment_id, kind, position)
      SELECT ${to}, segment_id, kind, position FROM campaign_segments WHERE campaign_id = ${from}`);
  },

  /**
   * A new contact group of the team holding, with their fields, the recipients campaign `from` did
   * not reach: its messages unsent for any reason but an opt-out or an invalid number (and, for a
   * stop not yet swept, those still queued), and the recipients of its audience it never wrote (a
   * stop or an expiry that came while the audience was being written: those after the number it had
   * got to, by its groups now). Its headers are the fields they carry.
   */
  async unreachedGroup(
    tx: Tx,
    campaign: { id: number; teamId: number; includedGroupIds: number[]; excludedGroupIds: number[] },
    group: { name: string; description: string },
    now: Date,
  ): Promise<{ id: number; uuid: string; contacts: number }> {
    const inserted = await oneRowOf(
      tx,
      GroupRowSchema,
      sql`
      INSERT INTO contact_groups (team_id, name, description, created_at, updated_at)
      VALUES (${campaign.teamId}, ${group.name}, ${group.description}, ${now}, ${now})
      RETURNING id, uuid::text AS uuid, 0 AS contacts`,
    );
    await tx.execute(sql`
      INSERT INTO contacts (contact_group_id, phone_number, custom_fields, created_at, updated_at)
      SELECT ${inserted.id}, m.phone_number, coalesce(m.custom_fields, '{}'::jsonb), ${now}, ${now} FROM messages m
       WHERE m.campaign_id = ${campaign.id}
         AND (m.status = 'queued' OR (m.status = 'unsent' AND coalesce(m.reason, '') NOT IN ('opted_out', 'invalid_number')))
      ON CONFLICT (contact_group_id, phone_number) DO NOTHING`);
    // The audience never written: after where the stop (or the expiry, still writing) left it.
    const audience = await oneRowOf(
      tx,
      AudienceRowSchema,
      sql`SELECT coalesce(audience_after, stopped_audience_after) AS after FROM campaigns WHERE id = ${campaign.id}`,
    );
    if (audience.after !== null && campaign.includedGroupIds.length > 0) {
      const rest = recipientsOf(campaign.includedGroupIds, campaign.excludedGroupIds, { after: audience.after, limit: WHOLE });
      await tx.execute(sql`
        INSERT INTO contacts (contact_group_id, phone_number, custom_fields, created_at, updated_at)
        SELECT ${inserted.id}, r.phone_number, r.custom_fields, ${now}, ${now} FROM (${rest}) r
         WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.campaign_id = ${campaign.id} AND m.phone_number = r.phone_number)
        ON CONFLICT (contact_group_id, phone_number) DO NOTHING`);
    }
    return oneRowOf(
      tx,
      GroupRowSchema,
      sql`
      UPDATE contact_groups g
         SET contact_count = (SELECT count(*) FROM contacts c WHERE c.contact_group_id = g.id)::int,
             headers = coalesce((SELECT jsonb_agg(k ORDER BY k) FROM (SELECT DISTINCT jsonb_object_keys(c.custom_fields) AS k
                                   FROM contacts c WHERE c.contact_group_id = g.id) keys), '[]'::jsonb)
       WHERE g.id = ${inserted.id}
      RETURNING g.id, g.uuid::text AS uuid, g.contact_count AS contacts`,
    );
  },
};
