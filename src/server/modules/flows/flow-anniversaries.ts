import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatTimestamp } from '../../../shared/time/local-timestamps';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { Clock } from '../../lib/time';

const AnniversaryFlowSchema = z.object({
  id: z.number(),
  field: z.string(),
  at: z.string(),
  zone: z.string().nullable(),
  doneOn: z.string().nullable(),
});

/**
 * The `anniversary` trigger (docs/flows.md): once a day, at the flow's time of day in the team's
 * zone, a run of each enabled anniversary flow for every number of the team's groups whose date field
 * (`YYYY-MM-DD…`, the field's name in any case) falls on today's month and day. The flow's
 * `anniversary_done_on` is moved to today in the transaction that starts the runs, so each day's
 * runs start once however many processes or ticks look. A 29 February is kept only in leap years.
 */
export function createFlowAnniversaries(deps: { db: Db; clock: Clock; config: { appTimezone: string } }) {
  return {
    /** Starts today's anniversary runs that are due; answers how many runs it started. */
    async startDue(): Promise<number> {
      const now = deps.clock.now();
      const flows = await rowsOf(
        deps.db,
        AnniversaryFlowSchema,
        sql`SELECT f.id::int AS id, f.trigger->>'field' AS field, f.trigger->>'at' AS at, t.time_zone AS zone, f.anniversary_done_on::text AS "doneOn"
              FROM flows f JOIN teams t ON t.id = f.team_id WHERE f.enabled AND f.trigger_type = 'anniversary'`,
      );
      let started = 0;
      for (const flow of flows) {
        const local = formatTimestamp(now, flow.zone || deps.config.appTimezone);
        const today = local.slice(0, 10);
        if (local.slice(11, 16) < flow.at || flow.doneOn === today) continue;
        started += await deps.db.transaction(async (tx) => {
          const claimed = await tx.execute(sql`
            UPDATE flows SET anniversary_done_on = ${today}::date WHERE id = ${flow.id} AND anniversary_done_on IS DISTINCT FROM ${today}::date RETURNING id`);
          if (claimed.rows.length === 0) return 0;
          const inserted = await tx.execute(sql`
            INSERT INTO flow_runs (flow_id, team_id, phone_number, trigger, due_at, started_at, updated_at)
            SELECT DISTINCT f.id, f.team_id, c.phone_number, 'anniversary', ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
              FROM flows f
              JOIN contact_groups g ON g.team_id = f.team_id AND g.system_role IS NULL
              JOIN contacts c ON c.contact_group_id = g.id
             WHERE f.id = ${flow.id}
               AND substr((SELECT e.value FROM jsonb_each_text(c.custom_fields) e WHERE lower(e.key) = lower(${flow.field}) LIMIT 1), 5, 6) = ${today.slice(4)}
               AND (f.reentry = 'after_end' OR NOT EXISTS (SELECT 1 FROM flow_runs r WHERE r.flow_id = f.id AND r.phone_number = c.phone_number AND NOT r.test))
            ON CONFLICT (flow_id, phone_number) WHERE state = 'active' AND NOT test DO NOTHING`);
          return inserted.rowCount ?? 0;
        });
      }
      return started;
    },
  };
}
export type FlowAnniversaries = ReturnType<typeof createFlowAnniversaries>;
