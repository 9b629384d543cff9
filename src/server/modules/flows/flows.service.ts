import { sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  FlowInputSchema,
  type Flow,
  type FlowCondition,
  type FlowInput,
  type FlowPatch,
  type FlowRun,
  type FlowRunInput,
  type FlowRunState,
  type FlowStep,
  type FlowStepStats,
} from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import { firstRowOf, rowsOf } from '../../db/rows';
import { newSigningSecret } from '../../gateways/webhooks/webhook-caller';
import type { AuthContext } from '../../http/auth';
import { ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { selfLinks } from '../../lib/presenters';
import type { SecretBox } from '../../lib/secret-box';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { Suppressions } from '../suppressions/suppressions.service';
import { withStepIds } from './flow-steps';
import type { FlowFields, FlowHistoryRow, FlowRow, FlowRunRow, FlowsRepository, TriggerIds } from './flows.repository';

type Uuids = { keywords: string[]; groups: string[]; templates: string[]; segments: string[] };
/** A uuid a flow names, and where in the request it is (for the 422's field). */
type Named = { kind: keyof Uuids; uuid: string; path: string };

/** Every uuid a flow names, with its path in the request. */
function namedIn(input: { trigger: FlowInput['trigger']; steps: FlowStep[] }): Named[] {
  const named: Named[] = [];
  const { trigger } = input;
  if (trigger.type === 'keyword') named.push({ kind: 'keywords', uuid: trigger.keyword_uuid, path: 'trigger.keyword_uuid' });
  if (trigger.type === 'group_joined') named.push({ kind: 'groups', uuid: trigger.group_uuid, path: 'trigger.group_uuid' });
  if (trigger.type === 'segment_entered') named.push({ kind: 'segments', uuid: trigger.segment_uuid, path: 'trigger.segment_uuid' });
  const condition = (c: FlowCondition, path: string) => {
    if (c.type === 'group') named.push({ kind: 'groups', uuid: c.group_uuid, path: `${path}.group_uuid` });
    if (c.type === 'segment') named.push({ kind: 'segments', uuid: c.segment_uuid, path: `${path}.segment_uuid` });
    if (c.type === 'group_of_conditions')
      c.conditions.forEach((leaf, i) => {
        if (leaf.type === 'group') named.push({ kind: 'groups', uuid: leaf.group_uuid, path: `${path}.conditions.${i}.group_uuid` });
      });
  };
  const walk = (steps: FlowStep[], path: string) =>
    steps.forEach((step, i) => {
      const at = `${path}.${i}`;
      if (step.type === 'send') named.push({ kind: 'templates', uuid: step.template_uuid, path: `${at}.template_uuid` });
      if (step.type === 'add_to_group' || step.type === 'remove_from_group') named.push({ kind: 'groups', uuid: step.group_uuid, path: `${at}.group_uuid` });
      if (step.type === 'branch') {
        condition(step.condition, `${at}.condition`);
        walk(step.then, `${at}.then`);
        walk(step.else, `${at}.else`);
      }
    });
  walk(input.steps, 'steps');
  return named.map((n) => ({ ...n, uuid: n.uuid.toLowerCase() }));
}

/**
 * Flows (docs/flows.md): the API's flows, their runs and what starts them. The advance of runs is
 * flow-advance.ts, run by the job runner; the `group_joined` trigger is the database's (migration
 * 0056); keywords start their flows through `startForKeyword`, in the inbound message's transaction.
 */
export function createFlowsService(deps: {
  db: Db;
  audit: Pick<AuditTrail, 'record'>;
  flows: FlowsRepository;
  suppressions: Pick<Suppressions, 'listOf' | 'check'>;
  secrets: Pick<SecretBox, 'seal'>;
  countryOf: (teamId: number) => Promise<string>;
  /** Whether the team holds anything about a number (the contact directory's rule, so the contact page's reads agree). */
  knows: (teamId: number, phoneNumber: string) => Promise<boolean>;
  /** Where a member who is not an admin may send tests: the members' own numbers and the team's test numbers (as campaigns' tests). */
  testNumbersOf: (teamId: number) => Promise<Set<string>>;
  clock: Clock;
  config: { publicUrl: string; appTimezone: string };
}) {
  const at = (moment: Date | null) => formatTimestamp(moment, deps.config.appTimezone);

  const withStats = (steps: FlowStep[], stats: Map<string, FlowStepStats>): FlowStep[] =>
    steps.map((step) => {
      const counted = { ...step, stats: stats.get(step.id!) ?? { entered: 0, sent: 0, clicked: 0, exited: 0 } };
      return counted.type === 'branch' ? { ...counted, then: withStats(counted.then, stats), else: withStats(counted.else, stats) } : counted;
    });

  async function present(row: FlowRow, conn: Db | Tx = deps.db, secret?: string): Promise<Flow> {
    const [counts, stats] = await Promise.all([deps.flows.runCounts([row.id], conn), deps.flows.stepStats(row.id, conn)]);
    return {
      uuid: row.uuid,
      name: row.name,
      trigger: row.trigger,
      steps: withStats(row.steps, stats),
      enabled: row.enabled,
      reentry: row.reentry,
      runs: counts.get(row.id)!,
      ...(secret ? { signing_secret: secret } : {}),
      links: selfLinks(deps.config.publicUrl, 'flows', row.uuid),
      created_at: at(row.createdAt),
      updated_at: at(row.updatedAt),
    };
  }

  const presentRun = (row: FlowRunRow, history: FlowHistoryRow[]): FlowRun => ({
    uuid: row.uuid,
    flow: { uuid: row.flowUuid, name: row.flowName },
    phone_number: row.phoneNumber,
    state: row.state,
    exit_reason: row.exitReason,
    step_id: row.stepId,
    // A run a trigger started is due at once (`-infinity`, read as null): its start is when.
    next_due_at: row.state !== 'active' ? '' : at(row.dueAt ?? row.startedAt),
    trigger: row.trigger,
    test: row.test,
    started_at: at(row.startedAt),
    ended_at: at(row.endedAt),
    history: history.map((h) => ({
      step_id: h.stepId,
      type: h.stepType as FlowRun['history'][number]['type'],
      entered_at: at(h.enteredAt),
      done_at: at(h.doneAt),
      outcome: h.outcome,
    })),
  });

  const presentRuns = async (rows: FlowRunRow[]) => {
    const history = await deps.flows.historyOf(rows.map((row) => row.id));
    return rows.map((row) => presentRun(row, history.get(row.id)!));
  };

  /** Every uuid must name the team's keyword, group, template or segment: 422 on its field otherwise. */
  async function resolve(conn: Db | Tx, teamId: number, input: { trigger: FlowInput['trigger']; steps: FlowStep[] }): Promise<TriggerIds> {
    const named = namedIn(input);
    const uuids: Uuids = { keywords: [], groups: [], templates: [], segments: [] };
    for (const n of named) uuids[n.kind].push(n.uuid);
    const found = await deps.flows.references(conn, teamId, uuids);
    const errors: Record<string, string[]> = {};
    const LABEL = { keywords: 'keyword', groups: 'group', templates: 'template', segments: 'segment' } as const;
    for (const n of named) if (!found[n.kind].has(n.uuid)) errors[n.path] = [`The selected ${LABEL[n.kind]} is invalid.`];
    if (Object.keys(errors).length > 0) throw new ValidationError(errors);
    const { trigger } = input;
    return {
      keywordId: trigger.type === 'keyword' ? found.keywords.get(trigger.keyword_uuid.toLowerCase())! : null,
      groupId: trigger.type === 'group_joined' ? found.groups.get(trigger.group_uuid.toLowerCase())! : null,
    };
  }

  const find = async (auth: AuthContext, uuid: string, conn?: Db | Tx, lock = false) => {
    const row = await deps.flows.find(auth.teamId, uuid, conn, lock);
    if (!row) throw new NotFoundError();
    return row;
  };

  return {
    async list(auth: AuthContext, window: PageWindow, search?: string) {
      const { rows, total } = await deps.flows.list(auth.teamId, window, search);
      return { items: await Promise.all(rows.map((row) => present(row))), total };
    },

    show: async (auth: AuthContext, uuid: string) => present(await find(auth, uuid)),

    async create(auth: AuthContext, input: FlowInput) {
      const fields: FlowFields = { ...input, steps: withStepIds(input.steps) };
      const ids = await resolve(deps.db, auth.teamId, fields);
      const secret = newSigningSecret();
      return deps.db.transaction(async (tx) => {
        const row = await deps.flows.insert(tx, auth.teamId, fields, ids, Buffer.from(deps.secrets.seal(secret)));
        const after = await present(row, tx);
        await deps.audit.record(tx, auth, { resourceType: 'flow', resourceUuid: row.uuid, after });
        return { ...after, signing_secret: secret };
      });
    },

    /** Any field may change; the others keep theirs. Steps sent back with their id keep it (and their counts). */
    async update(auth: AuthContext, uuid: string, patch: FlowPatch) {
      const row = await find(auth, uuid);
      const merged = FlowInputSchema.safeParse({
        name: patch.name ?? row.name,
        trigger: patch.trigger ?? row.trigger,
        steps: patch.steps ?? row.steps,
        enabled: patch.enabled ?? row.enabled,
        reentry: patch.reentry ?? row.reentry,
      });
      if (!merged.success) throw ValidationError.fromIssues(merged.error.issues);
      const fields: FlowFields = { ...merged.data, steps: withStepIds(merged.data.steps) };
      const ids = await resolve(deps.db, auth.teamId, fields);
      return deps.db.transaction(async (tx) => {
        const current = await find(auth, uuid, tx, true);
        const before = await present(current, tx);
        const saved = await deps.flows.update(tx, current.id, fields, ids);
        // A disabled flow's active runs end (flow_disabled) at the advance's next batch, not when their wait ends.
        if (current.enabled && !saved.enabled) await deps.flows.dueNow(tx, current.id, deps.clock.now());
        const after = await present(saved, tx);
        await deps.audit.record(tx, auth, { resourceType: 'flow', resourceUuid: uuid, before, after });
        return after;
      });
    },

    /** The flow and its runs go (a number's page no longer shows them); messages already queued stay. */
    async delete(auth: AuthContext, uuid: string) {
      await deps.db.transaction(async (tx) => {
        const current = await find(auth, uuid, tx, true);
        const before = await present(current, tx);
        await deps.flows.delete(tx, current.id);
        await deps.audit.record(tx, auth, { resourceType: 'flow', resourceUuid: uuid, before });
      });
    },

    /**
     * The `api` trigger: a run for the number, which the advance takes at once. 409 when the flow is
     * disabled, the number opted out, already in an active run of the flow, or (a `never` flow) ran
     * it before. With `test` (the dashboard's "test with my number"), a test run (docs/flows.md,
     * "Test runs"): whatever the flow's state, re-entry or the number's ordinary run, in place of
     * the number's active test run of the flow; 409 only for an opted-out number.
     */
    async startRun(auth: AuthContext, uuid: string, input: FlowRunInput) {
      const normalized = normalizePhoneNumber(input.phone_number, await deps.countryOf(auth.teamId));
      if (!normalized.ok) throw ValidationError.field('phone_number', `The phone_number ${JSON.stringify(input.phone_number)} is not a phone number.`);
      const phone = normalized.number;
      const test = input.test === true;
      // A test run goes through quiet hours and frequency caps: as a campaign's test, only to the team's own people unless an admin sends it.
      if (test && auth.role !== 'admin' && !(await deps.testNumbersOf(auth.teamId)).has(phone))
        throw ValidationError.field(
          'phone_number',
          `Tests go only to the members' own numbers and the team's test numbers: +${phone} is neither. An admin can add it to the test numbers in the team settings.`,
        );
      const now = deps.clock.now();
      return deps.db.transaction(async (tx) => {
        const flow = await find(auth, uuid, tx, true);
        if (!flow.enabled && !test) throw new ConflictError('The flow is disabled: enable it before starting runs.');
        if (await deps.suppressions.check(tx, await deps.suppressions.listOf(auth.teamId, tx), phone))
          throw new ConflictError(`${phone} is opted out (in default_optouts): no flow runs for it until it texts START.`);
        if (!test && flow.reentry === 'never' && (await deps.flows.hasRun(tx, flow.id, phone)))
          throw new ConflictError(`${phone} has run this flow before, and it allows no re-entry.`);
        // The flow's row is held (find's lock), so two test starts for one number take turns.
        if (test) await deps.flows.replaceTestRun(tx, flow.id, phone, now);
        const [started] = await rowsOf(
          tx,
          z.object({ id: z.number() }),
          sql`
          INSERT INTO flow_runs (flow_id, team_id, phone_number, fields, trigger, test, due_at, started_at, updated_at)
          VALUES (${flow.id}, ${auth.teamId}, ${phone}, ${JSON.stringify(input.fields ?? {})}::jsonb, 'api', ${test}, ${now}, ${now}, ${now})
          ON CONFLICT (flow_id, phone_number) WHERE state = 'active' AND ${test ? sql`test` : sql`NOT test`} DO NOTHING
          RETURNING id::int AS id`,
        );
        if (!started) throw new ConflictError(`${phone} is already in an active run of this flow.`);
        const after = presentRun(await deps.flows.findRun(started.id, tx), []);
        await deps.audit.record(tx, auth, { resourceType: 'flow_run', resourceUuid: after.uuid, after });
        return after;
      });
    },

    async runsOfFlow(auth: AuthContext, uuid: string, window: PageWindow, state?: FlowRunState) {
      const flow = await find(auth, uuid);
      const { rows, total } = await deps.flows.runsOfFlow(flow.id, window, state);
      return { items: await presentRuns(rows), total };
    },

    /** Every run of the number in the team, oldest first, with its fields and history: the contact's export. */
    async exportOf(teamId: number, phoneNumber: string): Promise<Array<FlowRun & { fields: Record<string, unknown> }>> {
      const rows = await deps.flows.allRunsOfNumber(teamId, phoneNumber);
      const history = await deps.flows.historyOf(rows.map((row) => row.id));
      return rows.map((row) => ({ ...presentRun(row, history.get(row.id)!), fields: row.fields }));
    },

    async runsOfNumber(auth: AuthContext, phoneNumber: string, window: PageWindow) {
      const normalized = normalizePhoneNumber(phoneNumber, await deps.countryOf(auth.teamId));
      // As the contact page: what is not a number names nothing the team holds.
      if (!normalized.ok) throw new NotFoundError();
      const { rows, total } = await deps.flows.runsOfNumber(auth.teamId, normalized.number, window);
      // As the contact page: 404 when the team holds nothing about the number (no existence leak).
      if (total === 0 && !(await deps.knows(auth.teamId, normalized.number))) throw new NotFoundError();
      return { items: await presentRuns(rows), total };
    },

    /**
     * A number that opted out (STOP): its active runs in the team become due at once, so the
     * advance ends them (`opted_out`) within seconds rather than when their waits end.
     */
    async optedOut(tx: Tx, teamId: number, phone: string, now: Date): Promise<void> {
      await tx.execute(
        sql`UPDATE flow_runs SET due_at = ${now} WHERE team_id = ${teamId} AND phone_number = ${phone} AND state = 'active' AND due_at > ${now}`,
      );
    },

    /** Whether the team's flows hold anything about the number: a run, or a mark of its segment entry or anniversary. */
    holds: (conn: Db | Tx, teamId: number, phone: string): Promise<boolean> => deps.flows.holdsNumber(conn, teamId, phone),

    /** A contact's erasure, in its transaction (the repository's `eraseNumber` says what goes). Answers how many runs now carry the token. */
    erase: (tx: Tx, teamId: number, phone: string, token: string, now: Date): Promise<number> => deps.flows.eraseNumber(tx, teamId, phone, token, now),

    /** Whether a keyword starts any enabled flow (under double opt-in, such a keyword is a sign-up). */
    async keywordStartsFlows(keywordId: number): Promise<boolean> {
      const row = await firstRowOf(
        deps.db,
        z.object({ starts: z.boolean() }),
        sql`SELECT EXISTS (SELECT 1 FROM flows WHERE trigger_keyword_id = ${keywordId} AND enabled) AS starts`,
      );
      return row?.starts ?? false;
    },

    /**
     * A keyword's flows for the number that texted it, in the inbound message's transaction: a run of
     * each enabled flow the keyword triggers (none while the number has an active run of it, nor of a
     * `never` flow it ran before). Answers the names of the flows started.
     */
    async startForKeyword(tx: Tx, keywordId: number, phone: string, now: Date): Promise<string[]> {
      const rows = await rowsOf(
        tx,
        z.object({ name: z.string() }),
        sql`
        WITH started AS (
          INSERT INTO flow_runs (flow_id, team_id, phone_number, trigger, due_at, started_at, updated_at)
          SELECT f.id, f.team_id, ${phone}, 'keyword', ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
            FROM flows f
           WHERE f.trigger_keyword_id = ${keywordId} AND f.enabled
             AND (f.reentry = 'after_end' OR NOT EXISTS (SELECT 1 FROM flow_runs r WHERE r.flow_id = f.id AND r.phone_number = ${phone} AND NOT r.test))
          ON CONFLICT (flow_id, phone_number) WHERE state = 'active' AND NOT test DO NOTHING
          RETURNING flow_id)
        SELECT f.name FROM started s JOIN flows f ON f.id = s.flow_id ORDER BY f.name`,
      );
      return rows.map((row) => row.name);
    },
  };
}
export type FlowsService = ReturnType<typeof createFlowsService>;
