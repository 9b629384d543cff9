import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { segmentNumbersOf, segmentReferencesOf, segmentScopeOf, useSegmentSettings, type SegmentShape } from '../../db/segment-sql';
import type { Clock } from '../../lib/time';

/** How often a `segment_entered` flow's segment is looked at (a segment is evaluated whole). */
export const SEGMENT_LOOK_EVERY_MS = 60_000;

const DueFlowSchema = z.object({
  id: z.number(),
  teamId: z.number(),
  checked: z.boolean(),
  match: z.enum(['all', 'any']).nullable(),
  conditions: z.custom<SegmentShape['conditions']>().nullable(),
});

/**
 * The `segment_entered` trigger (docs/flows.md): every minute, each enabled such flow's segment is
 * evaluated (the segment compiler, as the segments module counts it) and compared with the numbers
 * it held at the last look (`flow_segment_members`): a number new to it starts a run, a number gone
 * from it is forgotten (it may enter again). The first look after the flow is made, enabled or
 * pointed at another segment only notes who is in: they did not enter. One transaction per flow,
 * which takes the flow's row `FOR UPDATE SKIP LOCKED`, so two processes never look at once.
 */
export function createFlowSegmentEntries(deps: { db: Db; clock: Clock; config: { appTimezone: string } }) {
  return {
    /** Looks at the segments due for a look; answers how many runs it started. */
    async startDue(): Promise<number> {
      const now = deps.clock.now();
      const due = await rowsOf(
        deps.db,
        z.object({ id: z.number() }),
        sql`SELECT f.id::int AS id FROM flows f
             WHERE f.enabled AND f.trigger_type = 'segment_entered'
               AND (f.segment_checked_at IS NULL OR f.segment_checked_at <= ${new Date(now.getTime() - SEGMENT_LOOK_EVERY_MS)})`,
      );
      let started = 0;
      for (const { id } of due) {
        started += await deps.db.transaction(async (tx) => {
          const [flow] = await rowsOf(
            tx,
            DueFlowSchema,
            sql`SELECT f.id::int AS id, f.team_id::int AS "teamId", f.segment_checked_at IS NOT NULL AS checked, s.match, s.conditions
                  FROM flows f LEFT JOIN segments s ON s.team_id = f.team_id AND s.uuid::text = lower(f.trigger->>'segment_uuid')
                 WHERE f.id = ${id} AND f.enabled FOR UPDATE OF f SKIP LOCKED`,
          );
          if (!flow) return 0;
          await tx.execute(sql`UPDATE flows SET segment_checked_at = ${now} WHERE id = ${id}`);
          // A segment deleted since: nobody is in it.
          if (flow.match === null || flow.conditions === null) {
            await tx.execute(sql`DELETE FROM flow_segment_members WHERE flow_id = ${id}`);
            return 0;
          }
          const shape: SegmentShape = { match: flow.match, conditions: flow.conditions };
          await useSegmentSettings(tx);
          const references = await segmentReferencesOf(tx, flow.teamId, [shape]);
          const scope = await segmentScopeOf(tx, flow.teamId, [shape], references, deps.config.appTimezone, now);
          const { rows } = await tx.execute<{ started: number }>(sql`
            WITH now_in AS (${segmentNumbersOf(shape, scope)}),
            gone AS (DELETE FROM flow_segment_members m WHERE m.flow_id = ${id} AND NOT EXISTS (SELECT 1 FROM now_in n WHERE n.phone_number = m.phone_number)),
            entered AS (
              INSERT INTO flow_segment_members (flow_id, phone_number) SELECT ${id}, n.phone_number FROM now_in n
              ON CONFLICT (flow_id, phone_number) DO NOTHING RETURNING phone_number),
            runs AS (
              INSERT INTO flow_runs (flow_id, team_id, phone_number, trigger, due_at, started_at, updated_at)
              SELECT f.id, f.team_id, e.phone_number, 'segment_entered', ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
                FROM entered e JOIN flows f ON f.id = ${id}
               WHERE ${flow.checked}
                 AND (f.reentry = 'after_end' OR NOT EXISTS (SELECT 1 FROM flow_runs r WHERE r.flow_id = f.id AND r.phone_number = e.phone_number AND NOT r.test))
              ON CONFLICT (flow_id, phone_number) WHERE state = 'active' AND NOT test DO NOTHING RETURNING 1)
            SELECT count(*)::int AS started FROM runs`);
          return Number(rows[0]?.started ?? 0);
        });
      }
      return started;
    },
  };
}
export type FlowSegmentEntries = ReturnType<typeof createFlowSegmentEntries>;
