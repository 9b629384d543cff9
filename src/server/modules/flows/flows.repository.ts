import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { FLOW_RUN_STATES, FLOW_TRIGGER_TYPES, type FlowRunState, type FlowStep, type FlowStepStats, type FlowTrigger } from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow } from '../../db/pages';
import { firstRowOf, MomentSchema, oneRowOf, rowsOf, type Conn } from '../../db/rows';
import type { Clock } from '../../lib/time';

const FlowRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  teamId: z.number(),
  name: z.string(),
  trigger: z.custom<FlowTrigger>(),
  steps: z.custom<FlowStep[]>(),
  enabled: z.boolean(),
  reentry: z.enum(['after_end', 'never']),
  secretEncrypted: z.instanceof(Buffer),
  createdAt: MomentSchema,
  updatedAt: MomentSchema,
});
export type FlowRow = z.output<typeof FlowRowSchema>;

const FLOW_COLUMNS = sql`f.id::int AS id, f.uuid::text AS uuid, f.team_id::int AS "teamId", f.name, f.trigger, f.steps, f.enabled, f.reentry,
  f.secret_encrypted AS "secretEncrypted", f.created_at AS "createdAt", f.updated_at AS "updatedAt"`;

const RunRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  flowUuid: z.string(),
  flowName: z.string(),
  phoneNumber: z.string(),
  state: z.enum(FLOW_RUN_STATES),
  exitReason: z.string().nullable(),
  stepId: z.string().nullable(),
  dueAt: MomentSchema.nullable(),
  trigger: z.enum(FLOW_TRIGGER_TYPES),
  test: z.boolean(),
  startedAt: MomentSchema,
  endedAt: MomentSchema.nullable(),
});
export type FlowRunRow = z.output<typeof RunRowSchema>;

const HistoryRowSchema = z.object({
  runId: z.number(),
  stepId: z.string(),
  stepType: z.string(),
  enteredAt: MomentSchema,
  doneAt: MomentSchema.nullable(),
  outcome: z.string().nullable(),
});
export type FlowHistoryRow = z.output<typeof HistoryRowSchema>;

const RUN_COLUMNS = sql`r.id::int AS id, r.uuid::text AS uuid, f.uuid::text AS "flowUuid", f.name AS "flowName", r.phone_number AS "phoneNumber",
  r.state, r.exit_reason AS "exitReason", r.step_id AS "stepId", CASE WHEN isfinite(r.due_at) THEN r.due_at END AS "dueAt", r.trigger, r.test, r.started_at AS "startedAt", r.ended_at AS "endedAt"`;

/** Why a run ended early: these outcomes of a history row count as the step's `exited`. */
export const EXIT_OUTCOMES = ['opted_out', 'flow_disabled', 'step_removed', 'erased'] as const;

/** What a flow's trigger names, as ids for the columns the pipeline and the contacts trigger read. */
export type TriggerIds = { keywordId: number | null; groupId: number | null };

export type FlowFields = { name: string; trigger: FlowTrigger; steps: FlowStep[]; enabled: boolean; reentry: 'after_end' | 'never' };

/** Flows and their runs in SQL; the advance of runs has its own file (flow-advance.ts). */
export function createFlowsRepository(db: Db, clock: Clock) {
  return {
    async list(teamId: number, window: PageWindow, search?: string): Promise<Page<FlowRow>> {
      const where = sql`f.team_id = ${teamId}${search ? sql` AND f.name ILIKE ${`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : sql``}`;
      return readPage({
        rows: rowsOf(
          db,
          FlowRowSchema,
          sql`SELECT ${FLOW_COLUMNS} FROM flows f WHERE ${where} ORDER BY f.created_at DESC, f.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM flows f WHERE ${where}`),
      });
    },

    /** The team's flow; in a transaction (`conn`) with `lock`, held until it ends. */
    find: (teamId: number, uuid: string, conn: Conn = db, lock = false): Promise<FlowRow | undefined> =>
      firstRowOf(
        conn,
        FlowRowSchema,
        sql`SELECT ${FLOW_COLUMNS} FROM flows f WHERE f.team_id = ${teamId} AND f.uuid::text = ${uuid.toLowerCase()}${lock ? sql` FOR UPDATE` : sql``}`,
      ),

    async insert(tx: Tx, teamId: number, fields: FlowFields, ids: TriggerIds, secretEncrypted: Buffer): Promise<FlowRow> {
      const now = clock.now();
      return oneRowOf(
        tx,
        FlowRowSchema,
        sql`
        INSERT INTO flows AS f (team_id, name, trigger, trigger_type, trigger_keyword_id, trigger_group_id, steps, enabled, reentry, secret_encrypted, created_at, updated_at)
        VALUES (${teamId}, ${fields.name}, ${JSON.stringify(fields.trigger)}::jsonb, ${fields.trigger.type}, ${ids.keywordId}, ${ids.groupId},
                ${JSON.stringify(fields.steps)}::jsonb, ${fields.enabled}, ${fields.reentry}, ${secretEncrypted}, ${now}, ${now})
        RETURNING ${FLOW_COLUMNS}`,
      );
    },

    async update(tx: Tx, id: number, fields: FlowFields, ids: TriggerIds): Promise<FlowRow> {
      return oneRowOf(
        tx,
        FlowRowSchema,
        sql`
        UPDATE flows f SET name = ${fields.name}, trigger = ${JSON.stringify(fields.trigger)}::jsonb, trigger_type = ${fields.trigger.type},
               trigger_keyword_id = ${ids.keywordId}, trigger_group_id = ${ids.groupId}, steps = ${JSON.stringify(fields.steps)}::jsonb,
               enabled = ${fields.enabled}, reentry = ${fields.reentry}, updated_at = ${clock.now()},
               -- A segment_entered flow enabled again or pointed elsewhere looks afresh: who is in then did not enter.
               segment_checked_at = CASE WHEN f.trigger IS DISTINCT FROM ${JSON.stringify(fields.trigger)}::jsonb OR (NOT f.enabled AND ${fields.enabled})
                                         THEN NULL ELSE f.segment_checked_at END
         WHERE f.id = ${id}
        RETURNING ${FLOW_COLUMNS}`,
      );
    },

    /** A disabled flow's ordinary runs, due now (a test run goes on while its flow is disabled). */
    async dueNow(tx: Tx, flowId: number, now: Date): Promise<void> {
      await tx.execute(sql`UPDATE flow_runs SET due_at = ${now} WHERE flow_id = ${flowId} AND state = 'active' AND NOT test AND due_at > ${now}`);
    },

    async delete(tx: Tx, id: number): Promise<void> {
      await tx.execute(sql`DELETE FROM flows WHERE id = ${id}`);
    },

    /**
     * The ids of what a flow names, in the team only (by lower-case uuid): keywords, groups (not the
     * suppression list: no flow starts on an opt-out or adds to the list), templates and segments.
     */
    async references(conn: Conn, teamId: number, uuids: { keywords: string[]; groups: string[]; templates: string[]; segments: string[] }) {
      const rows = await rowsOf(
        conn,
        z.object({ kind: z.string(), uuid: z.string(), id: z.number() }),
        sql`
        SELECT 'keyword' AS kind, k.uuid::text AS uuid, k.id::int AS id FROM keywords k WHERE k.team_id = ${teamId} AND k.uuid::text = ANY(${sql.param(uuids.keywords)}::text[])
        UNION ALL SELECT 'group', g.uuid::text, g.id::int FROM contact_groups g
         WHERE g.team_id = ${teamId} AND g.system_role IS NULL AND g.uuid::text = ANY(${sql.param(uuids.groups)}::text[])
        UNION ALL SELECT 'template', t.uuid::text, t.id::int FROM templates t WHERE t.team_id = ${teamId} AND t.uuid::text = ANY(${sql.param(uuids.templates)}::text[])
        UNION ALL SELECT 'segment', s.uuid::text, s.id::int FROM segments s WHERE s.team_id = ${teamId} AND s.uuid::text = ANY(${sql.param(uuids.segments)}::text[])`,
      );
      const found = {
        keywords: new Map<string, number>(),
        groups: new Map<string, number>(),
        templates: new Map<string, number>(),
        segments: new Map<string, number>(),
      };
      for (const row of rows) found[`${row.kind}s` as keyof typeof found].set(row.uuid, row.id);
      return found;
    },

    /** Each flow's runs by state; test runs are not counted. */
    async runCounts(flowIds: number[], conn: Conn = db): Promise<Map<number, Record<FlowRunState, number>>> {
      const rows = await rowsOf(
        conn,
        z.object({ flowId: z.number(), state: z.enum(FLOW_RUN_STATES), n: z.number() }),
        sql`SELECT flow_id::int AS "flowId", state, count(*)::int AS n FROM flow_runs WHERE flow_id = ANY(${sql.param(flowIds)}::bigint[]) AND NOT test GROUP BY 1, 2`,
      );
      const counts = new Map(flowIds.map((id) => [id, { active: 0, completed: 0, exited: 0 }]));
      for (const row of rows) counts.get(row.flowId)![row.state] = row.n;
      return counts;
    },

    /**
     * Each step's counts (entered, sent, clicked, exited) of a flow, by step id. `clicked`: the runs
     * whose message at the step a person clicked (a human click on any of its tracked links; a
     * link-preview bot's fetch is no click), each counted once however many clicks it had. Test runs
     * are not counted.
     */
    async stepStats(flowId: number, conn: Conn = db): Promise<Map<string, FlowStepStats>> {
      const rows = await rowsOf(
        conn,
        z.object({ stepId: z.string(), entered: z.number(), sent: z.number(), clicked: z.number(), exited: z.number() }),
        sql`
        WITH h AS (
          SELECT s.step_id, count(*)::int AS entered,
                 count(*) FILTER (WHERE s.outcome = ANY(${sql.param([...EXIT_OUTCOMES])}::text[]))::int AS exited
            FROM flow_run_steps s JOIN flow_runs r ON r.id = s.run_id WHERE r.flow_id = ${flowId} AND NOT r.test GROUP BY s.step_id),
        m AS (
          SELECT o.flow_step_id AS step_id, count(*) FILTER (WHERE o.status NOT IN ('failed', 'unsent'))::int AS sent,
                 count(*) FILTER (WHERE EXISTS (SELECT 1 FROM short_links s JOIN link_clicks k ON k.code = s.code AND NOT k.is_bot
                                                 WHERE s.outbound_reply_id = o.id))::int AS clicked
            FROM outbound_replies o JOIN flow_runs r ON r.id = o.flow_run_id
           WHERE r.flow_id = ${flowId} AND NOT r.test GROUP BY o.flow_step_id)
        SELECT coalesce(h.step_id, m.step_id) AS "stepId", coalesce(h.entered, 0) AS entered, coalesce(m.sent, 0) AS sent,
               coalesce(m.clicked, 0) AS clicked, coalesce(h.exited, 0) AS exited
          FROM h FULL JOIN m ON m.step_id = h.step_id`,
      );
      return new Map(rows.map((row) => [row.stepId, { entered: row.entered, sent: row.sent, clicked: row.clicked, exited: row.exited }]));
    },

    /** A flow's runs, newest first, optionally in one state. */
    async runsOfFlow(flowId: number, window: PageWindow, state?: FlowRunState): Promise<Page<FlowRunRow>> {
      const where = sql`r.flow_id = ${flowId}${state ? sql` AND r.state = ${state}` : sql``}`;
      return readPage({
        rows: rowsOf(
          db,
          RunRowSchema,
          sql`SELECT ${RUN_COLUMNS} FROM flow_runs r JOIN flows f ON f.id = r.flow_id WHERE ${where} ORDER BY r.started_at DESC, r.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM flow_runs r WHERE ${where}`),
      });
    },

    /** A number's runs in the team, newest first. */
    async runsOfNumber(teamId: number, phoneNumber: string, window: PageWindow): Promise<Page<FlowRunRow>> {
      const where = sql`r.team_id = ${teamId} AND r.phone_number = ${phoneNumber}`;
      return readPage({
        rows: rowsOf(
          db,
          RunRowSchema,
          sql`SELECT ${RUN_COLUMNS} FROM flow_runs r JOIN flows f ON f.id = r.flow_id WHERE ${where} ORDER BY r.started_at DESC, r.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM flow_runs r WHERE ${where}`),
      });
    },

    /** Whether the team's flows hold anything about the number: a run, or a mark of its segment entry or anniversary. */
    async holdsNumber(conn: Conn, teamId: number, phone: string): Promise<boolean> {
      const row = await firstRowOf(
        conn,
        z.object({ holds: z.boolean() }),
        sql`SELECT EXISTS (SELECT 1 FROM flow_runs WHERE team_id = ${teamId} AND phone_number = ${phone})
                OR EXISTS (SELECT 1 FROM flow_segment_members s JOIN flows f ON f.id = s.flow_id WHERE f.team_id = ${teamId} AND s.phone_number = ${phone})
                OR EXISTS (SELECT 1 FROM flow_anniversary_starts s JOIN flows f ON f.id = s.flow_id WHERE f.team_id = ${teamId} AND s.phone_number = ${phone}) AS holds`,
      );
      return row?.holds ?? false;
    },

    /**
     * A contact's erasure, in its transaction: the number's active runs end (`erased`, so no flow
     * texts it again), every run of it keeps its history and counts but has `token` for the number
     * and no fields, and what else the flows keep of it goes: its webhook steps' calls (their payload
     * names it; one not yet made is not made), and the marks of its segment entries and anniversaries.
     * Answers how many runs now carry the token.
     */
    async eraseNumber(tx: Tx, teamId: number, phone: string, token: string, now: Date): Promise<number> {
      await tx.execute(sql`
        WITH ended AS (
          UPDATE flow_runs SET state = 'exited', exit_reason = 'erased', due_at = NULL, ended_at = ${now}, updated_at = ${now}
           WHERE team_id = ${teamId} AND phone_number = ${phone} AND state = 'active'
          RETURNING id, step_id)
        UPDATE flow_run_steps s SET done_at = ${now}, outcome = 'erased'
          FROM ended e WHERE s.run_id = e.id AND s.step_id = e.step_id AND s.done_at IS NULL`);
      await tx.execute(sql`
        DELETE FROM flow_webhook_calls c USING flow_runs r WHERE r.id = c.run_id AND r.team_id = ${teamId} AND r.phone_number = ${phone}`);
      await tx.execute(sql`
        DELETE FROM flow_segment_members s USING flows f WHERE f.id = s.flow_id AND f.team_id = ${teamId} AND s.phone_number = ${phone}`);
      await tx.execute(sql`
        DELETE FROM flow_anniversary_starts s USING flows f WHERE f.id = s.flow_id AND f.team_id = ${teamId} AND s.phone_number = ${phone}`);
      const runs = await tx.execute(sql`
        UPDATE flow_runs SET phone_number = ${token}, fields = '{}'::jsonb, updated_at = ${now} WHERE team_id = ${teamId} AND phone_number = ${phone}`);
      return runs.rowCount ?? 0;
    },

    /** Every run of the number in the team, oldest first, each with the fields it was started with (the contact's export). */
    allRunsOfNumber: (teamId: number, phoneNumber: string): Promise<Array<FlowRunRow & { fields: Record<string, unknown> }>> =>
      rowsOf(
        db,
        RunRowSchema.extend({ fields: z.record(z.string(), z.unknown()) }),
        sql`SELECT ${RUN_COLUMNS}, r.fields FROM flow_runs r JOIN flows f ON f.id = r.flow_id
             WHERE r.team_id = ${teamId} AND r.phone_number = ${phoneNumber} ORDER BY r.started_at, r.id`,
      ),

    findRun: (id: number, conn: Conn = db): Promise<FlowRunRow> =>
      oneRowOf(conn, RunRowSchema, sql`SELECT ${RUN_COLUMNS} FROM flow_runs r JOIN flows f ON f.id = r.flow_id WHERE r.id = ${id}`),

    /** The history of runs, each in the order its steps were entered. */
    async historyOf(runIds: number[], conn: Conn = db): Promise<Map<number, FlowHistoryRow[]>> {
      const rows = await rowsOf(
        conn,
        HistoryRowSchema,
        sql`SELECT run_id::int AS "runId", step_id AS "stepId", step_type AS "stepType", entered_at AS "enteredAt", done_at AS "doneAt", outcome
              FROM flow_run_steps WHERE run_id = ANY(${sql.param(runIds)}::bigint[]) ORDER BY run_id, entered_at, done_at NULLS LAST`,
      );
      const history = new Map<number, FlowHistoryRow[]>(runIds.map((id) => [id, []]));
      for (const row of rows) history.get(row.runId)!.push(row);
      return history;
    },

    /**
     * The number's active test run of the flow, if any, ends (`replaced`): a new test run takes its
     * place. Its step's history row is closed with it, as the advance closes a run that exits.
     */
    async replaceTestRun(tx: Tx, flowId: number, phoneNumber: string, now: Date): Promise<void> {
      await tx.execute(sql`
        WITH ended AS (
          UPDATE flow_runs SET state = 'exited', exit_reason = 'replaced', ended_at = ${now}, due_at = NULL, updated_at = ${now}
           WHERE flow_id = ${flowId} AND phone_number = ${phoneNumber} AND state = 'active' AND test
          RETURNING id, step_id)
        UPDATE flow_run_steps h SET done_at = ${now}, outcome = 'replaced' FROM ended e WHERE h.run_id = e.id AND h.step_id = e.step_id AND h.done_at IS NULL`);
    },

    /** Whether the number has ever run the flow (a `never` flow's re-entry); a test run does not count. */
    hasRun: async (tx: Tx, flowId: number, phoneNumber: string): Promise<boolean> =>
      (await firstRowOf(
        tx,
        z.object({ one: z.number() }),
        sql`SELECT 1 AS one FROM flow_runs WHERE flow_id = ${flowId} AND phone_number = ${phoneNumber} AND NOT test LIMIT 1`,
      )) !== undefined,
  };
}
export type FlowsRepository = ReturnType<typeof createFlowsRepository>;
