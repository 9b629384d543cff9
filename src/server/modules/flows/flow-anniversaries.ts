import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { formatTimestamp } from '../../../shared/time/local-timestamps';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { zoneOfNumber } from '../../lib/phone-zones';
import type { Clock } from '../../lib/time';

const AnniversaryFlowSchema = z.object({
  id: z.number(),
  teamId: z.number(),
  field: z.string(),
  at: z.string(),
  zone: z.string().nullable(),
});

const DAY_MS = 86_400_000;

/** `-MM-DD` of a `YYYY-MM-DD…` text: what a date field and a day are compared by. */
const monthDay = (date: string) => date.slice(4, 10);

/** The contact's value of the flow's date field, its name in any case. */
const fieldOf = (field: string) => sql`(SELECT e.value FROM jsonb_each_text(c.custom_fields) e WHERE lower(e.key) = lower(${field}) LIMIT 1)`;

/**
 * The `anniversary` trigger (docs/flows.md): a run of each enabled anniversary flow for every number
 * of the team's groups whose date field (`YYYY-MM-DD…`, the field's name in any case) falls on the
 * day it is for the number, once the number's own clock shows the flow's time of day. The number's
 * zone is found as campaigns' local-time sending and quiet hours find it (`lib/phone-zones.ts`, by
 * its first six digits, the team's zone as the fallback), so a flow at 10:00 greets a New Yorker at
 * 10:00 in New York and a Londoner at 10:00 in London.
 *
 * Each start inserts the number's row in `flow_anniversary_starts` (the flow, the number, the date in
 * its zone) in the transaction that starts its run, and a number with a row is not started again:
 * once per number and year, across ticks, processes and restarts. A number whose run of the flow is
 * still active, or that may not run it again (`reentry` never), is marked all the same: its
 * anniversary has been seen. A 29 February is kept only in leap years. Missed (Herald down) until
 * the number's day ends, the start is made late that day; after that it is not.
 *
 * Looked at once a minute (the flow's time has minutes): each look reads the team's contacts whose
 * date falls on a day that is today somewhere (yesterday, today or tomorrow in UTC).
 */
export function createFlowAnniversaries(deps: { db: Db; clock: Clock; config: { appTimezone: string } }) {
  let lastMinute: number | undefined;
  return {
    /** Starts the anniversary runs that are due; answers how many runs it started. */
    async startDue(): Promise<number> {
      const now = deps.clock.now();
      const minute = Math.floor(now.getTime() / 60_000);
      if (minute === lastMinute) return 0;
      lastMinute = minute;
      const flows = await rowsOf(
        deps.db,
        AnniversaryFlowSchema,
        sql`SELECT f.id::int AS id, f.team_id::int AS "teamId", f.trigger->>'field' AS field, f.trigger->>'at' AS at, t.time_zone AS zone
              FROM flows f JOIN teams t ON t.id = f.team_id WHERE f.enabled AND f.trigger_type = 'anniversary' ORDER BY f.id`,
      );
      // Every day that is today in some zone (UTC−12 to UTC+14).
      const days = [-1, 0, 1].map((offset) => monthDay(new Date(now.getTime() + offset * DAY_MS).toISOString()));
      let started = 0;
      for (const flow of flows) {
        const teamZone = flow.zone || deps.config.appTimezone;
        // The numbers on those days, by their first six digits (which settle the zone) and day.
        const groups = await rowsOf(
          deps.db,
          z.object({ prefix: z.string(), sample: z.string(), day: z.string() }),
          sql`SELECT left(c.phone_number, 6) AS prefix, min(c.phone_number) AS sample, substr(${fieldOf(flow.field)}, 5, 6) AS day
                FROM contact_groups g JOIN contacts c ON c.contact_group_id = g.id
               WHERE g.team_id = ${flow.teamId} AND g.system_role IS NULL
                 AND substr(${fieldOf(flow.field)}, 5, 6) = ANY(${sql.param(days)}::text[])
               GROUP BY 1, 3`,
        );
        const due: Array<{ prefix: string; day: string; date: string }> = [];
        for (const group of groups) {
          const local = formatTimestamp(now, zoneOfNumber(group.sample, teamZone));
          if (monthDay(local) === group.day && local.slice(11, 16) >= flow.at) due.push({ prefix: group.prefix, day: group.day, date: local.slice(0, 10) });
        }
        if (due.length === 0) continue;
        started += await deps.db.transaction(async (tx) => {
          const inserted = await tx.execute(sql`
            WITH due AS (
              SELECT * FROM unnest(${sql.param(due.map((d) => d.prefix))}::text[], ${sql.param(due.map((d) => d.day))}::text[],
                                   ${sql.param(due.map((d) => d.date))}::date[]) AS d(prefix, day, on_date)
            ),
            numbers AS (
              SELECT DISTINCT c.phone_number, d.on_date
                FROM due d
                JOIN contacts c ON left(c.phone_number, 6) = d.prefix
                JOIN contact_groups g ON g.id = c.contact_group_id AND g.team_id = ${flow.teamId} AND g.system_role IS NULL
               WHERE substr(${fieldOf(flow.field)}, 5, 6) = d.day
            ),
            marked AS (
              INSERT INTO flow_anniversary_starts (flow_id, phone_number, on_date)
              SELECT ${flow.id}, phone_number, on_date FROM numbers
              ON CONFLICT DO NOTHING RETURNING phone_number
            )
            INSERT INTO flow_runs (flow_id, team_id, phone_number, trigger, due_at, started_at, updated_at)
            SELECT f.id, f.team_id, m.phone_number, 'anniversary', ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
              FROM marked m JOIN flows f ON f.id = ${flow.id} AND f.enabled
             WHERE f.reentry = 'after_end' OR NOT EXISTS (SELECT 1 FROM flow_runs r WHERE r.flow_id = f.id AND r.phone_number = m.phone_number AND NOT r.test)
            ON CONFLICT (flow_id, phone_number) WHERE state = 'active' AND NOT test DO NOTHING`);
          return inserted.rowCount ?? 0;
        });
      }
      return started;
    },
  };
}
export type FlowAnniversaries = ReturnType<typeof createFlowAnniversaries>;
