import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { FlowCondition, FlowStep } from '../../../shared/contract';
import { quietUntil, type QuietHours } from '../../../shared/schedule/quiet-hours';
import { parseShorthands, renderTokens, shorthandNames, type ShorthandToken } from '../../../shared/sms';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { segmentNumbersOf, segmentReferencesOf, segmentScopeOf, type SegmentShape } from '../../db/segment-sql';
import { freeShortCodes, insertReplyShortLinks } from '../../engine/store/short-links';
import { zoneOfNumber } from '../../lib/phone-zones';
import { SHORT_CODE_SENDER } from '../../lib/short-code';
import type { Clock } from '../../lib/time';
import { branchTarget, indexSteps, waitEnd, type StepIndex } from './flow-steps';
import { isMarketing, testWaitEnd, webhookRun } from './flow-test-runs';
import type { FlowWebhookCall, FlowWebhooks } from './flow-webhooks';

/**
 * The advance of flow runs (docs/flows.md, "Durability"): the job runner calls `advanceDue` every
 * few seconds. Each batch is one transaction that claims due runs (`FOR UPDATE SKIP LOCKED`: two
 * processes never take the same run), does each run's current step and moves it past it, so a
 * step's effect (the message queued, the group joined or left, the webhook's call recorded) commits
 * with the move or not at all: a crash or a failed statement leaves the batch as it was, to be done
 * again, whole. A run does one step per batch; a step that is done at once leaves the run due at
 * once, for the next batch. The statements are set-based (arrays over the batch), not one a run.
 * A send step's message carries a short link of its own for each tracked link of its template,
 * recorded with it in the same transaction (docs/flows.md, "Tracked links").
 *
 * A webhook step's call is queued (`flow-webhooks.ts`) in the batch's transaction, once per run and
 * step, and made after the commit, then retried with backoff while it fails: a crash loses no call
 * and repeats no step.
 */

const ClaimedSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  flowId: z.number(),
  teamId: z.number(),
  phone: z.string(),
  fields: z.record(z.string(), z.string()),
  stepId: z.string().nullable(),
  /** Whether the run goes on: its flow is enabled, or it is a test run (which goes on while its flow is disabled). */
  enabled: z.boolean(),
  optedOut: z.boolean(),
  test: z.boolean(),
});
type Claimed = z.output<typeof ClaimedSchema>;

const FlowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  steps: z.custom<FlowStep[]>(),
  secretEncrypted: z.instanceof(Buffer),
  zone: z.string().nullable(),
  quietHours: z.custom<QuietHours | null>(),
});
type LoadedFlow = z.output<typeof FlowSchema> & { index: StepIndex };

type Move = { runId: number; state: 'active' | 'completed' | 'exited'; exitReason: string | null; stepId: string | null; dueAt: Date | null };
type Done = { runId: number; stepId: string; outcome: string };
type Entered = { runId: number; stepId: string; stepType: string };
type Send = { runId: number; stepId: string; teamId: number; to: string; sender: string; body: string; marketing: boolean };
/** A send step's message before its short codes are known: its template's parsed body and the fields to render it with. */
type Draft = Omit<Send, 'body'> & { template: LoadedTemplate; fields: Record<string, string> };
type TemplateLink = { id: number; destination: string; domain: string | null };
type LoadedTemplate = { body: string; sender: string; links: Record<string, TemplateLink>; tokens: ShorthandToken[]; tracked: string[] };
/** A short link of a flow message, by the message's run and step (its id is known once it is inserted). */
type ShortLink = { runId: number; stepId: string; code: string; linkId: number; linkName: string; destination: string };
type Membership = { runId: number; groupUuid: string; teamId: number; phone: string };

export type FlowAdvanceDeps = {
  db: Db;
  clock: Clock;
  /** The webhook steps' calls: queued in the batch's transaction, made after its commit. */
  webhooks: Pick<FlowWebhooks, 'queue' | 'kick' | 'idle'>;
  /** Whether the team's suppression list holds the number (modules/suppressions' `isSuppressed` over its list), as SQL. */
  suppressed: (teamId: SQL, phone: SQL) => SQL;
  config: { appTimezone: string };
  /** What a short link on a link's domain starts with (the vanity domains' `urlBase`: PUBLIC_URL/l for the service's own). */
  urlBase: (domain: string | null) => string;
};

export function createFlowAdvance(deps: FlowAdvanceDeps) {
  const { db, clock } = deps;

  async function claim(tx: Tx, now: Date, limit: number): Promise<Claimed[]> {
    return rowsOf(
      tx,
      ClaimedSchema,
      sql`
      SELECT r.id::int AS id, r.uuid::text AS uuid, r.flow_id::int AS "flowId", r.team_id::int AS "teamId", r.phone_number AS phone, r.fields,
             r.step_id AS "stepId", f.enabled OR r.test AS enabled, ${deps.suppressed(sql`r.team_id`, sql`r.phone_number`)} AS "optedOut", r.test
        FROM flow_runs r JOIN flows f ON f.id = r.flow_id
       WHERE r.id IN (SELECT id FROM flow_runs WHERE state = 'active' AND due_at <= ${now} ORDER BY due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)`,
    );
  }

  async function flowsOf(tx: Tx, ids: number[]): Promise<Map<number, LoadedFlow>> {
    const rows = await rowsOf(
      tx,
      FlowSchema,
      sql`SELECT f.id::int AS id, f.uuid::text AS uuid, f.name, f.steps, f.secret_encrypted AS "secretEncrypted", t.time_zone AS zone, t.quiet_hours AS "quietHours"
            FROM flows f JOIN teams t ON t.id = f.team_id WHERE f.id = ANY(${sql.param(ids)}::bigint[])`,
    );
    return new Map(rows.map((row) => [row.id, { ...row, index: indexSteps(row.steps) }]));
  }

  /** Which of the runs (all at the same branch of one flow) the condition holds for. */
  async function holdsFor(tx: Tx, teamId: number, condition: FlowCondition, runs: Claimed[], now: Date): Promise<Set<number>> {
    if (condition.type === 'last_message') {
      const holds =
        condition.event === 'clicked'
          ? // A person (not a link-preview bot) clicked a tracked link of the run's latest message.
            sql`EXISTS (SELECT 1 FROM short_links s JOIN link_clicks k ON k.code = s.code AND NOT k.is_bot
                         WHERE s.outbound_reply_id = (SELECT o.id FROM outbound_replies o WHERE o.flow_run_id = r.id
                                                       ORDER BY o.created_at DESC, o.id DESC LIMIT 1))`
          : sql`EXISTS (SELECT 1 FROM inbound_messages m WHERE m.team_id = r.team_id AND m.from_number = r.phone_number
                          AND m.received_at > coalesce((SELECT max(o.created_at) FROM outbound_replies o WHERE o.flow_run_id = r.id), r.started_at))`;
      const rows = await rowsOf(
        tx,
        z.object({ id: z.number() }),
        sql`SELECT r.id::int AS id FROM flow_runs r WHERE r.id = ANY(${sql.param(runs.map((run) => run.id))}::bigint[]) AND ${holds}`,
      );
      return new Set(rows.map((row) => row.id));
    }
    let shape: SegmentShape;
    let negate = false;
    if (condition.type === 'segment') {
      const [segment] = await rowsOf(
        tx,
        z.object({ match: z.enum(['all', 'any']), conditions: z.custom<SegmentShape['conditions']>() }),
        sql`SELECT match, conditions FROM segments WHERE team_id = ${teamId} AND uuid::text = ${condition.segment_uuid.toLowerCase()}`,
      );
      // A segment deleted since the flow was saved holds no one.
      if (!segment) return condition.op === 'in' ? new Set() : new Set(runs.map((run) => run.id));
      shape = segment;
      negate = condition.op === 'not_in';
    } else shape = { match: 'all', conditions: [condition] };
    const references = await segmentReferencesOf(tx, teamId, [shape]);
    const scope = await segmentScopeOf(tx, teamId, [shape], references, deps.config.appTimezone, now);
    const phones = [...new Set(runs.map((run) => run.phone))];
    const matched = new Set(
      (
        await rowsOf(
          tx,
          z.object({ phone: z.string() }),
          sql`SELECT s.phone_number AS phone FROM (${segmentNumbersOf(shape, scope)}) s WHERE s.phone_number = ANY(${sql.param(phones)}::text[])`,
        )
      ).map((row) => row.phone),
    );
    return new Set(runs.filter((run) => matched.has(run.phone) !== negate).map((run) => run.id));
  }

  /**
   * The templates the send steps name (team's, by uuid), each parsed once, with its links (as the
   * engine reads a campaign's: id, destination and the link's domain) and the link names its body
   * uses that it has: those get a short link each.
   */
  async function templatesOf(tx: Tx, wanted: Array<{ teamId: number; uuid: string }>): Promise<Map<string, LoadedTemplate>> {
    const rows = await rowsOf(
      tx,
      z.object({
        teamId: z.number(),
        uuid: z.string(),
        body: z.string(),
        sender: z.string(),
        links: z.record(z.string(), z.object({ id: z.number(), destination: z.string(), domain: z.string().nullable() })),
      }),
      sql`
      SELECT t.team_id::int AS "teamId", t.uuid::text AS uuid, t.body, t.sender,
             coalesce((SELECT jsonb_object_agg(l.name, jsonb_build_object('id', l.id, 'destination', l.destination, 'domain', vd.domain))
                         FROM links l JOIN vanity_domains vd ON vd.id = l.vanity_domain_id WHERE l.template_id = t.id), '{}') AS links
        FROM templates t
        JOIN (SELECT DISTINCT * FROM unnest(${sql.param(wanted.map((w) => w.teamId))}::bigint[], ${sql.param(wanted.map((w) => w.uuid.toLowerCase()))}::text[])) AS w(team_id, uuid)
          ON t.team_id = w.team_id AND t.uuid::text = w.uuid`,
    );
    return new Map(
      rows.map((row) => [
        `${row.teamId}:${row.uuid}`,
        { ...row, tokens: parseShorthands(row.body), tracked: shorthandNames(row.body).links.filter((name) => row.links[name] !== undefined) },
      ]),
    );
  }

  /**
   * The batch's messages rendered, each `::NAME::` of its template's links as a short link of its
   * own (campaigns' way: the message carries the short URL, so its length and parts are the sent
   * text's), and those short links, to record with the messages.
   */
  async function withShortLinks(tx: Tx, drafts: Draft[]): Promise<{ sends: Send[]; links: ShortLink[] }> {
    const wanted = drafts.reduce((n, draft) => n + draft.template.tracked.length, 0);
    const codes = wanted > 0 ? await freeShortCodes(tx, wanted) : [];
    const links: ShortLink[] = [];
    const sends = drafts.map(({ template, fields, ...send }) => {
      const urls: Record<string, string> = {};
      for (const name of template.tracked) {
        const link = template.links[name]!;
        const code = codes[links.length]!;
        links.push({ runId: send.runId, stepId: send.stepId, code, linkId: link.id, linkName: name, destination: link.destination });
        urls[name] = `${deps.urlBase(link.domain)}/${code}`;
      }
      return { ...send, body: renderTokens(template.tokens, { fields, links: urls }) };
    });
    return { sends, links };
  }

  /**
   * The numbers' fields merged over the team's groups as a campaign merges them (oldest group first;
   * a non-empty value beats an empty one), by `team:number`.
   */
  async function fieldsOf(tx: Tx, runs: Claimed[]): Promise<Map<string, Record<string, string>>> {
    const rows = await rowsOf(
      tx,
      z.object({ teamId: z.number(), phone: z.string(), fields: z.record(z.string(), z.unknown()) }),
      sql`
      SELECT g.team_id::int AS "teamId", c.phone_number AS phone, c.custom_fields AS fields
        FROM unnest(${sql.param(runs.map((run) => run.teamId))}::bigint[], ${sql.param(runs.map((run) => run.phone))}::text[]) AS w(team_id, phone)
        JOIN contact_groups g ON g.team_id = w.team_id AND g.system_role IS NULL
        JOIN contacts c ON c.contact_group_id = g.id AND c.phone_number = w.phone
       ORDER BY g.created_at, g.id`,
    );
    const merged = new Map<string, Record<string, string>>();
    for (const row of rows) {
      const key = `${row.teamId}:${row.phone}`;
      const fields = merged.get(key) ?? {};
      for (const [name, value] of Object.entries(row.fields)) {
        if (typeof value !== 'string') continue;
        if (fields[name] === undefined || (fields[name] === '' && value !== '')) fields[name] = value;
      }
      merged.set(key, fields);
    }
    return merged;
  }

  /** One batch: claims up to `limit` due runs, does one step of each, commits. Answers how many it moved. */
  async function advanceBatch(limit: number): Promise<number> {
    const now = clock.now();
    const calls: FlowWebhookCall[] = [];
    const moved = await db.transaction(async (tx) => {
      const runs = await claim(tx, now, limit);
      if (runs.length === 0) return 0;
      const flows = await flowsOf(tx, [...new Set(runs.map((run) => run.flowId))]);
      const moves: Move[] = [];
      const done: Done[] = [];
      const entered: Entered[] = [];
      const drafts: Draft[] = [];
      const joins: Membership[] = [];
      const leaves: Membership[] = [];
      const starting = new Set<number>();

      const zoneOf = (flow: LoadedFlow, phone: string) => zoneOfNumber(phone, flow.zone || deps.config.appTimezone);
      /** The run goes on to `next` (entered now), or is completed when there is none. */
      const goTo = (run: Claimed, flow: LoadedFlow, next: string | null) => {
        if (next === null) return void moves.push({ runId: run.id, state: 'completed', exitReason: null, stepId: null, dueAt: null });
        const step = flow.index.steps.get(next)!.step;
        entered.push({ runId: run.id, stepId: next, stepType: step.type });
        const end = step.type === 'wait' ? waitEnd(step, zoneOf(flow, run.phone), now) : now;
        const dueAt = run.test ? testWaitEnd(end, now) : end;
        moves.push({ runId: run.id, state: 'active', exitReason: null, stepId: next, dueAt });
      };
      const exit = (run: Claimed, reason: string) => {
        if (run.stepId !== null) done.push({ runId: run.id, stepId: run.stepId, outcome: reason });
        moves.push({ runId: run.id, state: 'exited', exitReason: reason, stepId: run.stepId, dueAt: null });
      };

      // Branches first: their conditions are evaluated per flow and step, one statement each.
      const atBranch = new Map<string, Claimed[]>();
      for (const run of runs) {
        const step = run.stepId === null ? undefined : flows.get(run.flowId)!.index.steps.get(run.stepId)?.step;
        if (step?.type === 'branch' && run.enabled && !run.optedOut) {
          const key = `${run.flowId}:${run.stepId}`;
          atBranch.set(key, [...(atBranch.get(key) ?? []), run]);
        }
      }
      const holding = new Set<number>();
      for (const group of atBranch.values()) {
        const first = group[0]!;
        const step = flows.get(first.flowId)!.index.steps.get(first.stepId!)!.step as Extract<FlowStep, { type: 'branch' }>;
        for (const id of await holdsFor(tx, first.teamId, step.condition, group, now)) holding.add(id);
      }

      const sending = runs.filter((run) => {
        const step = run.stepId === null ? undefined : flows.get(run.flowId)!.index.steps.get(run.stepId)?.step;
        return step?.type === 'send' && run.enabled && !run.optedOut;
      });
      const templates = sending.length
        ? await templatesOf(
            tx,
            sending.map((run) => ({
              teamId: run.teamId,
              uuid: (flows.get(run.flowId)!.index.steps.get(run.stepId!)!.step as { template_uuid: string }).template_uuid,
            })),
          )
        : new Map<string, LoadedTemplate>();
      const contactFields = sending.length ? await fieldsOf(tx, sending) : new Map<string, Record<string, string>>();

      for (const run of runs) {
        const flow = flows.get(run.flowId)!;
        if (!run.enabled) {
          exit(run, 'flow_disabled');
          continue;
        }
        if (run.optedOut) {
          exit(run, 'opted_out');
          continue;
        }
        if (run.stepId === null) {
          starting.add(run.id);
          goTo(run, flow, flow.index.first);
          continue;
        }
        const entry = flow.index.steps.get(run.stepId);
        if (!entry) {
          // The step was removed by an edit: the run cannot know where it would be.
          exit(run, 'step_removed');
          continue;
        }
        const { step, next } = entry;
        switch (step.type) {
          case 'wait':
            done.push({ runId: run.id, stepId: run.stepId, outcome: 'waited' });
            goTo(run, flow, next);
            break;
          case 'send': {
            // A test run goes through quiet hours, as a campaign's test does.
            const until = flow.quietHours && !run.test ? quietUntil(flow.quietHours, zoneOf(flow, run.phone), now.getTime()) : null;
            if (until !== null) {
              // Quiet hours in the recipient's zone: the same step, due when they end.
              moves.push({ runId: run.id, state: 'active', exitReason: null, stepId: run.stepId, dueAt: new Date(until) });
              break;
            }
            const template = templates.get(`${run.teamId}:${step.template_uuid.toLowerCase()}`);
            if (!template) {
              done.push({ runId: run.id, stepId: run.stepId, outcome: 'skipped' });
            } else {
              const fields = { ...(contactFields.get(`${run.teamId}:${run.phone}`) ?? {}), ...run.fields };
              const sender = step.sender || template.sender || SHORT_CODE_SENDER;
              drafts.push({
                runId: run.id,
                stepId: run.stepId,
                teamId: run.teamId,
                to: run.phone,
                sender,
                template,
                fields,
                marketing: isMarketing(step.transactional, run.test),
              });
              done.push({ runId: run.id, stepId: run.stepId, outcome: 'sent' });
            }
            goTo(run, flow, next);
            break;
          }
          case 'branch': {
            const holds = holding.has(run.id);
            done.push({ runId: run.id, stepId: run.stepId, outcome: holds ? 'then' : 'else' });
            goTo(run, flow, branchTarget(flow.index, run.stepId, holds));
            break;
          }
          case 'add_to_group':
          case 'remove_from_group':
            (step.type === 'add_to_group' ? joins : leaves).push({
              runId: run.id,
              groupUuid: step.group_uuid.toLowerCase(),
              teamId: run.teamId,
              phone: run.phone,
            });
            done.push({ runId: run.id, stepId: run.stepId, outcome: step.type === 'add_to_group' ? 'added' : 'removed' });
            goTo(run, flow, next);
            break;
          case 'webhook':
            calls.push({
              runUuid: run.uuid,
              runId: run.id,
              stepId: run.stepId,
              url: step.url,
              payload: {
                event: 'flow.step',
                flow: { uuid: flow.uuid, name: flow.name },
                run: webhookRun(run),
                step: { id: run.stepId },
                sent_at: now.toISOString(),
              },
            });
            done.push({ runId: run.id, stepId: run.stepId, outcome: 'webhook_called' });
            goTo(run, flow, next);
            break;
          case 'end':
            done.push({ runId: run.id, stepId: run.stepId, outcome: 'ended' });
            goTo(run, flow, null);
            break;
        }
      }

      const { sends, links } = await withShortLinks(tx, drafts);
      await apply(tx, now, { moves, done, entered, sends, links, joins, leaves, starting });
      await deps.webhooks.queue(tx, calls, now);
      return runs.length;
    });
    if (calls.length > 0) deps.webhooks.kick();
    return moved;
  }

  async function apply(
    tx: Tx,
    now: Date,
    work: {
      moves: Move[];
      done: Done[];
      entered: Entered[];
      sends: Send[];
      links: ShortLink[];
      joins: Membership[];
      leaves: Membership[];
      starting: Set<number>;
    },
  ): Promise<void> {
    const { moves, done, entered, sends, links, joins, leaves, starting } = work;
    if (sends.length > 0) {
      // The run's and step's key makes a second message for one step impossible, whatever happens. The
      // new rows' ids are read back only when the batch has links to give them.
      const queued = await rowsOf(
        tx,
        z.object({ id: z.number(), runId: z.number(), stepId: z.string() }),
        sql`
        INSERT INTO outbound_replies (team_id, to_number, sender, body, kind, marketing, flow_run_id, flow_step_id, created_at, updated_at)
        SELECT s.team_id, s.to_number, s.sender, s.body, 'flow', s.marketing, s.run_id, s.step_id, ${now}, ${now}
          FROM unnest(${sql.param(sends.map((s) => s.teamId))}::bigint[], ${sql.param(sends.map((s) => s.to))}::text[], ${sql.param(sends.map((s) => s.sender))}::text[],
                      ${sql.param(sends.map((s) => s.body))}::text[], ${sql.param(sends.map((s) => s.marketing))}::boolean[], ${sql.param(sends.map((s) => s.runId))}::bigint[],
                      ${sql.param(sends.map((s) => s.stepId))}::text[]) AS s(team_id, to_number, sender, body, marketing, run_id, step_id)
        ON CONFLICT (flow_run_id, flow_step_id) WHERE flow_run_id IS NOT NULL DO NOTHING
        ${links.length > 0 ? sql`RETURNING id::int AS id, flow_run_id::int AS "runId", flow_step_id AS "stepId"` : sql``}`,
      );
      // The message's short links commit with it or not at all; a message the key refused gets none.
      const idOf = new Map(queued.map((row) => [`${row.runId}:${row.stepId}`, row.id]));
      const owned = links.flatMap(({ runId, stepId, ...link }) => {
        const outboundReplyId = idOf.get(`${runId}:${stepId}`);
        return outboundReplyId === undefined ? [] : [{ ...link, outboundReplyId }];
      });
      // A code another transaction took since `freeShortCodes` looked: the batch is done again, whole, with new codes.
      if (!(await insertReplyShortLinks(tx, owned))) throw new Error('a short code was taken while the batch was advanced; it is done again');
    }
    if (joins.length > 0) await join(tx, joins, now);
    if (leaves.length > 0) await leave(tx, leaves, now);
    if (done.length > 0)
      await tx.execute(sql`
        UPDATE flow_run_steps h SET done_at = ${now}, outcome = d.outcome
          FROM unnest(${sql.param(done.map((d) => d.runId))}::bigint[], ${sql.param(done.map((d) => d.stepId))}::text[], ${sql.param(done.map((d) => d.outcome))}::text[])
               AS d(run_id, step_id, outcome)
         WHERE h.run_id = d.run_id AND h.step_id = d.step_id`);
    if (entered.length > 0)
      await tx.execute(sql`
        INSERT INTO flow_run_steps (run_id, step_id, step_type, entered_at)
        SELECT * FROM unnest(${sql.param(entered.map((e) => e.runId))}::bigint[], ${sql.param(entered.map((e) => e.stepId))}::text[],
                             ${sql.param(entered.map((e) => e.stepType))}::text[], ${sql.param(entered.map(() => now))}::timestamptz[])
        ON CONFLICT (run_id, step_id) DO NOTHING`);
    await tx.execute(sql`
      UPDATE flow_runs r SET state = m.state, exit_reason = m.exit_reason, step_id = m.step_id, due_at = m.due_at,
             ended_at = CASE WHEN m.state = 'active' THEN NULL ELSE ${now}::timestamptz END,
             started_at = CASE WHEN m.starting THEN ${now}::timestamptz ELSE r.started_at END, updated_at = ${now}
        FROM unnest(${sql.param(moves.map((m) => m.runId))}::bigint[], ${sql.param(moves.map((m) => m.state))}::text[], ${sql.param(moves.map((m) => m.exitReason))}::text[],
                    ${sql.param(moves.map((m) => m.stepId))}::text[], ${sql.param(moves.map((m) => m.dueAt))}::timestamptz[],
                    ${sql.param(moves.map((m) => starting.has(m.runId)))}::boolean[]) AS m(run_id, state, exit_reason, step_id, due_at, starting)
       WHERE r.id = m.run_id`);
  }

  /** Adds the numbers to the team's groups (never the suppression list), and counts them in. */
  async function join(tx: Tx, joins: Membership[], now: Date): Promise<void> {
    await tx.execute(sql`
      WITH added AS (
        INSERT INTO contacts (contact_group_id, phone_number, created_at, updated_at)
        SELECT DISTINCT g.id, j.phone, ${now}::timestamptz, ${now}::timestamptz
          FROM unnest(${sql.param(joins.map((j) => j.teamId))}::bigint[], ${sql.param(joins.map((j) => j.groupUuid))}::text[], ${sql.param(joins.map((j) => j.phone))}::text[])
               AS j(team_id, group_uuid, phone)
          JOIN contact_groups g ON g.team_id = j.team_id AND g.uuid::text = j.group_uuid AND g.system_role IS NULL
        ON CONFLICT (contact_group_id, phone_number) DO NOTHING
        RETURNING contact_group_id)
      UPDATE contact_groups g SET contact_count = g.contact_count + a.n, updated_at = ${now}
        FROM (SELECT contact_group_id, count(*)::int AS n FROM added GROUP BY 1) a WHERE g.id = a.contact_group_id`);
  }

  async function leave(tx: Tx, leaves: Membership[], now: Date): Promise<void> {
    await tx.execute(sql`
      WITH removed AS (
        DELETE FROM contacts c USING contact_groups g,
               unnest(${sql.param(leaves.map((j) => j.teamId))}::bigint[], ${sql.param(leaves.map((j) => j.groupUuid))}::text[], ${sql.param(leaves.map((j) => j.phone))}::text[])
               AS j(team_id, group_uuid, phone)
         WHERE g.team_id = j.team_id AND g.uuid::text = j.group_uuid AND g.system_role IS NULL AND c.contact_group_id = g.id AND c.phone_number = j.phone
        RETURNING c.contact_group_id)
      UPDATE contact_groups g SET contact_count = g.contact_count - a.n, updated_at = ${now}
        FROM (SELECT contact_group_id, count(*)::int AS n FROM removed GROUP BY 1) a WHERE g.id = a.contact_group_id`);
  }

  return {
    advanceBatch,
    /** Resolves when the webhook calls under way have been made (a test's, and a process's stop). */
    idle: () => deps.webhooks.idle(),
    /**
     * Batches until no run is due or `maxMs` has passed (the job runner's tick). Answers how many
     * steps it did.
     */
    async advanceDue(options: { batchSize?: number; maxMs?: number } = {}): Promise<number> {
      const started = Date.now();
      let total = 0;
      for (;;) {
        const moved = await advanceBatch(options.batchSize ?? 1000);
        total += moved;
        if (moved === 0 || Date.now() - started > (options.maxMs ?? 20_000)) return total;
      }
    },
  };
}
export type FlowAdvance = ReturnType<typeof createFlowAdvance>;
