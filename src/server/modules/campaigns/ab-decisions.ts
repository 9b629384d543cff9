import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { firstRowOf, MomentSchema, rowsOf } from '../../db/rows';
import type { Clock } from '../../lib/time';
import { QuietHoursSchema } from '../../../shared/contract';
import { quietPeriods } from '../../../shared/schedule/quiet-hours';
import { mergeWindows } from '../../../shared/schedule/throttle';
import type { AuditRepository } from '../audit/audit.repository';
import { abFiguresOf, VariantFiguresSchema } from './ab-figures';
import { decisionOf, figuresByVariant, type AbSettings } from './ab-results';
import { campaignLifecycle } from './lifecycle';

/** How often the job counts the windows and decides the tests whose window has passed. */
export const AB_DECISIONS_EVERY_MS = 30_000;

const TestingRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  teamId: z.number(),
  settings: z.object({
    test_share: z.number(),
    metric: z.enum(['human_click_rate', 'conversion_rate', 'revenue_per_recipient']),
    decide_after_minutes: z.number(),
    min_recipients_per_variant: z.number(),
  }),
  seed: z.coerce.number(),
  windowMs: z.number(),
  windowAt: MomentSchema,
  paused: z.boolean(),
  quiet: QuietHoursSchema.nullable(),
  zone: z.string().nullable(),
  pauses: z.array(z.object({ start: MomentSchema, end: MomentSchema })),
  names: z.array(z.string()),
});
type Testing = z.output<typeof TestingRowSchema>;
const FiguresRowSchema = z.object({ figures: z.array(VariantFiguresSchema) });

/**
 * Sending time between `from` and `to` (docs/ab-tests.md, the window): none while the campaign is
 * paused by hand; otherwise the interval less its planned pauses and the team's quiet hours in the
 * team's zone (as a throttled plan counts them), unless the campaign ignores quiet hours.
 */
export function sendingTimeBetween(testing: Pick<Testing, 'paused' | 'quiet' | 'zone' | 'pauses'>, from: number, to: number, defaultZone: string): number {
  if (testing.paused || to <= from) return 0;
  const quiet = testing.quiet ? quietPeriods(testing.quiet, testing.zone ?? defaultZone, from, to) : [];
  const held = mergeWindows([...testing.pauses.map((p) => ({ start: p.start.getTime(), end: p.end.getTime() })), ...quiet]);
  let counted = to - from;
  for (const window of held) counted -= Math.max(0, Math.min(window.end, to) - Math.max(window.start, from));
  return Math.max(0, counted);
}

/**
 * The job runner's `campaigns.ab_tests` (every 30 s, once across processes): for each A/B test
 * still testing, adds the sending time since the last run to its window; once the window reaches
 * `decide_after_minutes`, decides it from the figures (`decisionOf`), through the campaign
 * lifecycle, and records the decision in the audit log in the same transaction. The engine then
 * writes the rest of the audience with the winner.
 */
export function createAbDecisions(deps: { db: Db; clock: Clock; audit: Pick<AuditRepository, 'record'>; defaultZone?: string }) {
  const defaultZone = deps.defaultZone ?? 'Europe/London';
  return {
    /** One pass; the ids of the campaigns it decided. */
    async run(): Promise<number[]> {
      const now = deps.clock.now();
      const testing = await rowsOf(
        deps.db,
        TestingRowSchema,
        sql`
        SELECT c.id, c.uuid::text AS uuid, c.team_id::int AS "teamId", c.ab_test AS settings, c.ab_seed::text AS seed, c.ab_window_ms::float8 AS "windowMs",
               c.ab_window_at AS "windowAt", coalesce(c.manually_paused, false) AS paused,
               CASE WHEN NOT c.ignore_quiet_hours THEN t.quiet_hours END AS quiet, t.time_zone AS zone,
               coalesce((SELECT json_agg(json_build_object('start', p.start_at, 'end', p.end_at)) FROM campaign_pauses p WHERE p.campaign_id = c.id), '[]') AS pauses,
               ARRAY(SELECT v.name FROM campaign_variants v WHERE v.campaign_id = c.id ORDER BY v.position) AS names
          FROM campaigns c JOIN teams t ON t.id = c.team_id
         WHERE c.status = 1 AND c.ab_test IS NOT NULL AND c.ab_winner IS NULL AND c.ab_window_at IS NOT NULL
           AND c.stopped_at IS NULL AND c.expired_at IS NULL
         ORDER BY c.id`,
      );
      const decided: number[] = [];
      for (const test of testing) {
        const counted = sendingTimeBetween(test, test.windowAt.getTime(), now.getTime(), defaultZone);
        const over = test.windowMs + counted >= test.settings.decide_after_minutes * 60_000;
        const done = await deps.db.transaction(async (tx) => {
          await campaignLifecycle.countAbWindow(tx, test.id, counted, now);
          if (!over) return false;
          const { figures } = (await firstRowOf(tx, FiguresRowSchema, sql`SELECT ${abFiguresOf(sql`${test.id}::bigint`)} AS figures`))!;
          const all = figuresByVariant(figures, test.names.length);
          const decision = decisionOf(test.settings.metric as AbSettings['metric'], all, test.seed);
          if (!(await campaignLifecycle.decideAbTest(tx, test.id, decision, now))) return false;
          await deps.audit.record(
            {
              teamId: test.teamId,
              actor: { kind: 'anonymous', uuid: null, name: 'Herald (A/B test)' },
              action: 'campaigns.ab_test.decided',
              resourceType: 'campaign',
              resourceUuid: test.uuid,
              changes: {
                'ab_test.winner': { after: test.names[decision.winner] },
                'ab_test.decided_by': { after: decision.decidedBy },
                'ab_test.probability': { after: Math.round(decision.probability * 1000) / 1000 },
              },
              ip: null,
            },
            tx,
          );
          return true;
        });
        if (done) decided.push(test.id);
      }
      return decided;
    },
  };
}
export type AbDecisions = ReturnType<typeof createAbDecisions>;
