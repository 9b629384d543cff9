import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recipientsOf } from '../../modules/contacts/contacts.repository';
import type { StartStore } from '../engine-store';

/** A campaign's start (its messages written) and its finish (status 2). */
export function createStartStore(db: Db): StartStore {
  return {
    /**
     * Campaigns whose send time has come: status 1 and one message per distinct recipient
     * (included minus excluded minus default_optouts), numbered, in one transaction each.
     */
    async startDue(now: Date, limit = 5): Promise<number[]> {
      const started: number[] = [];
      for (let i = 0; i < limit; i++) {
        const id = await db.transaction(async (tx) => {
          const { rows } = await tx.execute<{ id: number; team_id: number; is_test: boolean }>(sql`
            SELECT id, team_id, is_test FROM campaigns WHERE status = 0 AND scheduled_send_date <= ${now}
             ORDER BY scheduled_send_date, id LIMIT 1 FOR UPDATE SKIP LOCKED`);
          const campaign = rows[0];
          if (!campaign) return undefined;
          // The recipients are sorted by number: in memory rather than through temporary files.
          await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
          await tx.execute(sql`UPDATE campaigns SET status = 1, started_sending_at = ${now}, updated_at = ${now} WHERE id = ${campaign.id}`);
          let inserted;
          if (campaign.is_test) {
            inserted = await tx.execute(sql`
              INSERT INTO messages (campaign_id, sequence, phone_number, custom_fields)
              SELECT campaign_id, 1, phone_number, custom_fields FROM campaign_test_recipients WHERE campaign_id = ${campaign.id}`);
          } else {
            const { rows: groups } = await tx.execute<{ included: number[]; excluded: number[] }>(sql`
              SELECT coalesce(array_agg(contact_group_id) FILTER (WHERE kind = 'included'), '{}') AS included,
                     coalesce(array_agg(contact_group_id) FILTER (WHERE kind = 'excluded'), '{}') ||
                       ARRAY(SELECT id FROM contact_groups WHERE team_id = ${campaign.team_id} AND system_role = 'optouts') AS excluded
                FROM campaign_groups WHERE campaign_id = ${campaign.id}`);
            const included = (groups[0]?.included ?? []).map(Number);
            const excluded = (groups[0]?.excluded ?? []).map(Number);
            // One set-based statement, numbered by phone number: report pages are sequence ranges.
            inserted = await tx.execute(sql`
              INSERT INTO messages (campaign_id, sequence, phone_number, custom_fields, contact_group_id)
              SELECT ${campaign.id}, row_number() OVER (ORDER BY r.phone_number), r.phone_number, r.custom_fields, r.contact_group_id
                FROM (${recipientsOf(included, excluded)}) r`);
          }
          await tx.execute(sql`
            UPDATE campaigns SET message_count = ${inserted.rowCount ?? 0}, next_sequence = 1, anchor_sequence = 1 WHERE id = ${campaign.id}`);
          return campaign.id;
        });
        if (id === undefined) break;
        started.push(id);
      }
      return started;
    },

    /** Status 2 once every message was claimed and every batch settled. */
    async finishDone(now: Date): Promise<number[]> {
      const { rows } = await db.execute<{ id: number }>(sql`
        UPDATE campaigns c SET status = 2, finished_sending_at = ${now}, updated_at = ${now}
         WHERE c.status = 1 AND c.next_sequence > c.message_count AND NOT EXISTS (SELECT 1 FROM send_batches b WHERE b.campaign_id = c.id)
        RETURNING c.id`);
      return rows.map((row) => row.id);
    },
  };
}
