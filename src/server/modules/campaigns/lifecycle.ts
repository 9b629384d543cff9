import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../db/client';
import { firstRowOf, MomentSchema, rowsOf, type Conn } from '../../db/rows';
import { HELD_OWNER } from '../../engine/store/unsent';
import { EARLIEST_ZONE } from '../../../shared/schedule/local-time';

/**
 * When a campaign starts (and is locked): its send date, or, for a local-time campaign, its
 * wall-clock time in the earliest zone (UTC+14), up to `LOCAL_START_LEAD_MS` before its send date.
 * `table`: the name or alias the statement gives `campaigns`.
 */
export const startMomentOf = (table: string): SQL =>
  sql.raw(
    `(CASE WHEN ${table}.local_send_time IS NULL THEN ${table}.scheduled_send_date ELSE ${table}.local_send_time::timestamp AT TIME ZONE '${EARLIEST_ZONE}' END)`,
  );
/** The furthest a local-time campaign starts before its send date: its time at UTC+14 against the send date read as far west as UTC−12. */
export const LOCAL_START_LEAD_MS = 26 * 3_600_000;

/**
 * A campaign's lifecycle: every state, every transition, and the only code that writes the columns
 * that hold them (`status`, `is_draft`, `approval_status` and its `approval_*`, `manually_paused`,
 * `stopped_at`, `stop_swept`, `expired_at`, `started_sending_at`, `finished_sending_at`, an A/B
 * test's decision `ab_winner`, `ab_decided_by` and `ab_decided_at`, and the engine's
 * `next_sequence`, `audience_after` and `anchor_sequence` where a transition moves them).
 * The API's service and the engine's store call the functions below; nothing else writes those
 * columns (scripts/campaign-lifecycle.test.ts scans for it). The tables of states and transitions in
 * docs/engine.md are generated from CAMPAIGN_STATES and CAMPAIGN_TRANSITIONS (`npm run docs:lifecycle`).
 *
 * The stored values are the interface's (`status` 0, 1, 2; `approval.status`): states are read from
 * them, never stored as names.
 */

export type CampaignState = 'draft' | 'awaiting approval' | 'rejected' | 'scheduled' | 'held' | 'sending' | 'paused' | 'stopped' | 'expired' | 'finished';

/** Every state, and the stored values that say a campaign is in it. */
export const CAMPAIGN_STATES: ReadonlyArray<{ state: CampaignState; stored: string; meaning: string }> = [
  { state: 'draft', stored: 'status 0, `is_draft`', meaning: 'editable; never started, never asks for approval' },
  { state: 'awaiting approval', stored: "status 0, `approval_status = 'pending'`", meaning: "editable; waits for an admin's decision" },
  { state: 'rejected', stored: "status 0, `approval_status = 'rejected'`", meaning: 'editable; not started (an edit asks for approval again)' },
  {
    state: 'scheduled',
    stored: "status 0, `approval_status` `'not_required'` or `'approved'`",
    meaning: 'editable until its send time (then locked: 423); nothing written yet',
  },
  {
    state: 'held',
    stored: "status 0, `approval_status = 'pending'` with an `approval_notice`",
    meaning: 'its audience grew past its approval by its start: waits for approval again',
  },
  { state: 'sending', stored: 'status 1', meaning: 'its messages are being written and sent, one per distinct recipient' },
  { state: 'paused', stored: 'status 0 or 1, `manually_paused`', meaning: 'a throttled campaign paused by hand: nothing is claimed' },
  {
    state: 'stopped',
    stored: 'status 1, `stopped_at` (`stop_swept` once its queue is unsent)',
    meaning: 'nothing more is claimed; what is queued becomes unsent (`stopped`)',
  },
  {
    state: 'expired',
    stored: 'status 1, `expired_at` (status 2 once finished)',
    meaning: 'past `expiry_date`: nothing more is claimed; queued messages unsent (`pending`)',
  },
  {
    state: 'finished',
    stored: 'status 2, `finished_sending_at`',
    meaning: 'every recipient written, every message claimed and every batch settled (or stopped before it started)',
  },
];

export type CampaignTransition = {
  from: CampaignState[] | 'new';
  to: CampaignState;
  trigger: string;
  who: string;
  /** The function of this module that writes it. */
  by: keyof typeof campaignLifecycle;
};

const EDITABLE: CampaignState[] = ['draft', 'awaiting approval', 'rejected', 'scheduled', 'held'];
const EDITOR = 'an editor or admin';
const APPROVER = 'an admin other than the one who asked';
const ENGINE = 'the engine';

/** Every allowed transition. A move not listed here is never written. */
export const CAMPAIGN_TRANSITIONS: ReadonlyArray<CampaignTransition> = [
  { from: 'new', to: 'draft', trigger: '`POST /campaigns/` with `is_draft`', who: EDITOR, by: 'initialState' },
  { from: 'new', to: 'scheduled', trigger: "`POST /campaigns/` below the team's approval threshold (and every test send)", who: EDITOR, by: 'initialState' },
  { from: 'new', to: 'awaiting approval', trigger: "`POST /campaigns/` reaching the team's approval threshold", who: EDITOR, by: 'initialState' },
  { from: EDITABLE, to: 'draft', trigger: '`PUT /campaigns/{uuid}` with `is_draft`', who: EDITOR, by: 'editedState' },
  { from: EDITABLE, to: 'scheduled', trigger: "`PUT /campaigns/{uuid}` below the team's approval threshold", who: EDITOR, by: 'editedState' },
  { from: EDITABLE, to: 'awaiting approval', trigger: "`PUT /campaigns/{uuid}` reaching the team's approval threshold", who: EDITOR, by: 'editedState' },
  { from: EDITABLE, to: 'paused', trigger: '`PUT /campaigns/{uuid}` with `manually_paused`', who: EDITOR, by: 'editedState' },
  {
    from: ['awaiting approval', 'held'],
    to: 'scheduled',
    trigger: '`PUT /campaigns/{uuid}/approve` (records the recipients it covers)',
    who: APPROVER,
    by: 'decide',
  },
  { from: ['awaiting approval', 'held'], to: 'rejected', trigger: '`PUT /campaigns/{uuid}/reject`', who: APPROVER, by: 'decide' },
  {
    from: ['scheduled'],
    to: 'sending',
    trigger: 'its send time (`startDue`), its approval covering the audience counted then',
    who: ENGINE,
    by: 'startSending',
  },
  {
    from: ['scheduled'],
    to: 'held',
    trigger: 'its send time (`startDue`), its audience reaching the threshold beyond its approval',
    who: ENGINE,
    by: 'holdForApproval',
  },
  { from: ['scheduled', 'sending'], to: 'paused', trigger: '`PUT /campaigns/{uuid}/toggle-paused-status` (throttled only)', who: EDITOR, by: 'togglePaused' },
  {
    from: ['paused'],
    to: 'sending',
    trigger: '`PUT /campaigns/{uuid}/toggle-paused-status` once started: the throttle plan restarts',
    who: EDITOR,
    by: 'togglePaused',
  },
  { from: ['paused'], to: 'scheduled', trigger: '`PUT /campaigns/{uuid}/toggle-paused-status` before its start', who: EDITOR, by: 'togglePaused' },
  {
    from: ['scheduled', 'awaiting approval', 'rejected', 'held'],
    to: 'finished',
    trigger: '`PUT /campaigns/{uuid}/stop`: nothing was written',
    who: EDITOR,
    by: 'stop',
  },
  { from: ['sending', 'paused', 'expired'], to: 'stopped', trigger: '`PUT /campaigns/{uuid}/stop`', who: EDITOR, by: 'stop' },
  { from: ['stopped'], to: 'stopped', trigger: 'the expiry step sweeps its queue (`sweepStopped`): `stop_swept`', who: ENGINE, by: 'sweepNextStopped' },
  {
    from: ['sending'],
    to: 'sending',
    trigger: 'an A/B campaign starts (`startDue`): the seed of its split, and its window begins',
    who: ENGINE,
    by: 'startAbTest',
  },
  {
    from: ['sending', 'paused'],
    to: 'sending',
    trigger: 'each run of the A/B decision job: sending time counted towards the window',
    who: 'the job runner',
    by: 'countAbWindow',
  },
  {
    from: ['sending', 'paused'],
    to: 'sending',
    trigger: 'its A/B window has passed (the decision job), or `POST /campaigns/{uuid}/ab-test/winner`: the winner recorded, the rest of the audience reopened',
    who: 'the job runner, or an editor or admin',
    by: 'decideAbTest',
  },
  { from: ['sending', 'paused', 'stopped'], to: 'expired', trigger: '`expiry_date` passed (`expire`)', who: ENGINE, by: 'expireNext' },
  { from: ['finished'], to: 'finished', trigger: '`expiry_date` passed (`expire`): `expired_at` recorded', who: ENGINE, by: 'expireNext' },
  {
    from: ['sending', 'paused', 'stopped', 'expired'],
    to: 'finished',
    trigger: 'every recipient written and claimed, no batch left, a stop swept (`finishDone`)',
    who: ENGINE,
    by: 'finishDone',
  },
];

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The tables of docs/engine.md (between its `lifecycle` markers), as `npm run docs:lifecycle` writes them. */
export function lifecycleTables(): string {
  const states = ['| state | stored as | meaning |', '|---|---|---|', ...CAMPAIGN_STATES.map((s) => `| ${s.state} | ${cell(s.stored)} | ${cell(s.meaning)} |`)];
  const transitions = [
    '| from | to | trigger | who | written by |',
    '|---|---|---|---|---|',
    ...CAMPAIGN_TRANSITIONS.map((t) => `| ${t.from === 'new' ? '(new)' : t.from.join(', ')} | ${t.to} | ${cell(t.trigger)} | ${t.who} | \`${t.by}\` |`),
  ];
  return [...states, '', ...transitions].join('\n');
}

/** What a write of a campaign's content says of its state: its approval as the team's threshold asks, and whether it is a draft. */
export type StateOfWrite = { approval: { status: 'pending' | 'not_required'; requestedBy: number | null }; isDraft: boolean };

export type ApprovalDecision = { status: 'approved' | 'rejected'; decidedBy: number; comment: string | null; recipients: number | null };

const IdSchema = z.object({ id: z.number() });
const SeedSchema = z.object({ seed: z.string() });
const ExpiredSchema = z.object({ id: z.number(), cut: z.boolean() });
const StoppedSchema = z.object({ done: z.boolean(), wasStopped: z.boolean(), draft: z.boolean() });
const ToggledSchema = z.object({ paused: z.boolean().nullable(), updated_at: MomentSchema.nullable(), throttled: z.boolean() });

export const campaignLifecycle = {
  /** The state columns of a new campaign (`INSERT INTO campaigns (…, ${columns}, …) VALUES (…, ${values}, …)`): draft, scheduled or awaiting approval. */
  initialState(write: StateOfWrite, now: Date): { columns: SQL; values: SQL } {
    return {
      columns: sql`approval_status, approval_requested_by, approval_requested_at, is_draft`,
      values: sql`${write.approval.status}, ${write.approval.requestedBy}, ${write.approval.status === 'pending' ? now : null}, ${write.isDraft}`,
    };
  },

  /**
   * An edit's state columns (`UPDATE campaigns SET …, ${set} WHERE id = … AND ${editable}`): the
   * draft flag, the manual pause when given, and the approval asked for again (what was approved is
   * not what will go out). `editable`: the campaign has not started, and its send time is still to
   * come, or it is a draft, waits for approval or was rejected.
   */
  editedState(write: StateOfWrite, manuallyPaused: boolean | null | undefined, now: Date): { set: SQL; editable: SQL } {
    return {
      set: sql`manually_paused = ${manuallyPaused === undefined ? sql`manually_paused` : manuallyPaused}, is_draft = ${write.isDraft},
               approval_status = ${write.approval.status}, approval_requested_by = ${write.approval.requestedBy},
               approval_requested_at = ${write.approval.status === 'pending' ? now : null},
               approval_decided_by = NULL, approval_decided_at = NULL, approval_comment = NULL, approval_recipients = NULL, approval_notice = NULL`,
      editable: sql`status = 0 AND (${startMomentOf('campaigns')} > ${now} OR is_draft OR approval_status IN ('pending', 'rejected'))`,
    };
  },

  /**
   * An admin's decision on a campaign waiting for approval, in one statement: only a pending
   * campaign that has not started is decided (false otherwise, and nothing changes). The notice of a
   * campaign held at its start has then been answered.
   */
  async decide(conn: Conn, id: number, decision: ApprovalDecision, now: Date): Promise<boolean> {
    const rows = await rowsOf(
      conn,
      IdSchema,
      sql`
      UPDATE campaigns SET approval_status = ${decision.status}, approval_decided_by = ${decision.decidedBy}, approval_decided_at = ${now},
             approval_comment = ${decision.comment}, approval_recipients = ${decision.recipients}, approval_notice = NULL, updated_at = ${now}
       WHERE id = ${id} AND status = 0 AND approval_status = 'pending'
      RETURNING id`,
    );
    return rows.length > 0;
  },

  /**
   * Flips the manual pause in one statement (null → true → false → true …), so two toggles at once
   * flip it twice rather than both reading the same value. Only a throttled campaign that has not
   * finished sending can be toggled: `refused` says which rule stopped it, read from the same row.
   */
  async togglePaused(conn: Conn, id: number, now: Date): Promise<{ paused: boolean; updatedAt: Date } | { refused: 'not_throttled' | 'finished' }> {
    const row = await firstRowOf(
      conn,
      ToggledSchema,
      sql`
      WITH flipped AS (
        UPDATE campaigns SET manually_paused = manually_paused IS NOT TRUE, updated_at = ${now},
               -- Resuming restarts the throttle plan: what is left is spread over the open time left.
               resumed_at = CASE WHEN manually_paused IS TRUE THEN ${now}::timestamptz ELSE resumed_at END,
               anchor_sequence = CASE WHEN manually_paused IS TRUE THEN next_sequence ELSE anchor_sequence END
         WHERE id = ${id} AND throttled AND status IN (0, 1) AND stopped_at IS NULL
        RETURNING manually_paused, updated_at)
      SELECT f.manually_paused AS paused, f.updated_at, c.throttled FROM campaigns c LEFT JOIN flipped f ON true WHERE c.id = ${id}`,
    );
    if (!row || row.paused === null) return { refused: row?.throttled ? 'finished' : 'not_throttled' };
    return { paused: row.paused, updatedAt: row.updated_at! };
  },

  /**
   * Stops a campaign that is pending or sending, in one statement: a pending one is finished at once
   * (status 2, nothing was written); a sending one claims nothing more (its next sequence moves past
   * its last message, its audience is no longer written) and the engine makes what is still queued
   * unsent (`stopped`) at its next step. `refused`, and nothing changes, when it was not pending or
   * sending, was stopped already or is a draft. Where its audience had been written to is kept
   * (`stopped_audience_after`): the recipients after it were never reached (copies.ts).
   */
  async stop(conn: Conn, id: number, userId: number, now: Date): Promise<{ stopped: true } | { refused: 'finished' | 'stopped' | 'draft' }> {
    const row = await firstRowOf(
      conn,
      StoppedSchema,
      sql`
      WITH stopped AS (
        UPDATE campaigns
           SET stopped_at = ${now}, stopped_by = ${userId}, updated_at = ${now}, audience_after = NULL, stopped_audience_after = audience_after,
               next_sequence = CASE WHEN status = 1 THEN message_count + 1 ELSE next_sequence END,
               finished_sending_at = CASE WHEN status = 0 THEN ${now}::timestamptz ELSE finished_sending_at END,
               status = CASE WHEN status = 0 THEN 2 ELSE status END
         WHERE id = ${id} AND status IN (0, 1) AND stopped_at IS NULL AND NOT is_draft
        RETURNING id)
      SELECT EXISTS (SELECT 1 FROM stopped) AS done, c.stopped_at IS NOT NULL AS "wasStopped", c.is_draft AS draft FROM campaigns c WHERE c.id = ${id}`,
    );
    if (!row?.done) return { refused: row?.wasStopped ? 'stopped' : row?.draft ? 'draft' : 'finished' };
    return { stopped: true };
  },

  /**
   * At its start, a campaign whose audience needs an approval it does not have waits for one again,
   * with the reason in its notice. Whoever made the campaign (or last asked) still may not approve it.
   */
  async holdForApproval(tx: Tx, id: number, requester: number | null, notice: string, now: Date): Promise<void> {
    await tx.execute(sql`
      UPDATE campaigns SET approval_status = 'pending', approval_requested_by = ${requester}, approval_requested_at = ${now},
                           approval_decided_by = NULL, approval_decided_at = NULL, approval_comment = NULL, approval_recipients = NULL,
                           approval_notice = ${notice}, updated_at = ${now}
       WHERE id = ${id}`);
  },

  /** Status 1, in the transaction (holding the campaign's row) that writes its first messages. */
  async startSending(tx: Tx, id: number, now: Date): Promise<void> {
    await tx.execute(sql`UPDATE campaigns SET status = 1, started_sending_at = ${now}, updated_at = ${now} WHERE id = ${id}`);
  },

  /**
   * The next campaign (not in `skip`, not locked: one being claimed or settled is taken on the next
   * pass) past its expiry date that is not yet marked expired, or has batches of dead owners: marked
   * expired (once) with nothing more to claim, and locked for the caller's sweep of its messages.
   * `cut`: it was sending, and this is its expiry.
   */
  expireNext(tx: Tx, now: Date, skip: number[]): Promise<{ id: number; cut: boolean } | undefined> {
    return firstRowOf(
      tx,
      ExpiredSchema,
      sql`
      UPDATE campaigns u SET expired_at = coalesce(u.expired_at, ${now}), next_sequence = u.message_count + 1, updated_at = ${now}
        FROM (SELECT c.id, c.expired_at IS NULL AND c.status = 1 AS cut FROM campaigns c
               WHERE c.expiry_date <= ${now} AND c.status IN (1, 2) AND c.id <> ALL(${sql.param(skip)}::bigint[])
                 AND (c.expired_at IS NULL OR EXISTS (SELECT 1 FROM send_batches b WHERE b.campaign_id = c.id AND b.lease_until < ${now}))
               ORDER BY c.id LIMIT 1 FOR UPDATE SKIP LOCKED) pick
       WHERE u.id = pick.id
      RETURNING u.id, pick.cut`,
    );
  },

  /**
   * The next campaign stopped while sending (not in `skip`, not locked) whose queue is not swept yet,
   * or has batches of dead owners or held for quiet hours: marked swept (`stop_swept`, so it can
   * finish), its audience closed, and locked for the caller's sweep of its messages.
   */
  sweepNextStopped(tx: Tx, now: Date, skip: number[]): Promise<{ id: number } | undefined> {
    return firstRowOf(
      tx,
      IdSchema,
      sql`
      UPDATE campaigns SET stop_swept = true, next_sequence = message_count + 1, audience_after = NULL, updated_at = ${now}
       WHERE id = (SELECT c.id FROM campaigns c
                    WHERE c.status = 1 AND c.stopped_at IS NOT NULL AND c.id <> ALL(${sql.param(skip)}::bigint[])
                      AND (NOT c.stop_swept OR EXISTS (SELECT 1 FROM send_batches b WHERE b.campaign_id = c.id AND (b.lease_until < ${now} OR b.owner = ${HELD_OWNER})))
                    ORDER BY c.id LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id`,
    );
  },

  /**
   * An A/B campaign's test begins (in the transaction that starts it): the split's seed (one given
   * before is kept, so a split can be drawn again), the audience counted, and the window's clock.
   */
  async startAbTest(tx: Tx, id: number, audience: number, now: Date): Promise<string> {
    const row = await firstRowOf(
      tx,
      SeedSchema,
      sql`
      UPDATE campaigns SET ab_seed = coalesce(ab_seed, floor(random() * 2147483647)::bigint), ab_window_ms = 0, ab_window_at = ${now},
                           audience_estimate = ${audience}
       WHERE id = ${id} RETURNING ab_seed::text AS seed`,
    );
    return row!.seed;
  },

  /**
   * Counts sending time towards an A/B test's window: `countedMs` more, up to `at` (the decision job,
   * every run, for each campaign still testing).
   */
  async countAbWindow(conn: Conn, id: number, countedMs: number, at: Date): Promise<void> {
    await conn.execute(sql`
      UPDATE campaigns SET ab_window_ms = ab_window_ms + ${Math.max(0, Math.round(countedMs))}, ab_window_at = ${at}
       WHERE id = ${id} AND ab_winner IS NULL`);
  },

  /**
   * An A/B test's decision (the job at the end of the window, or a person before it), in one
   * statement: only an undecided test of a campaign still sending is decided (false otherwise). The
   * rest of the audience is then written with the winner (`audience_after` reopened from the start:
   * the test's recipients are left out as it is written).
   */
  async decideAbTest(
    conn: Conn,
    id: number,
    decision: { winner: number; decidedBy: 'auto' | 'manual' | 'not_significant'; probability: number | null; probabilities: number[] | null },
    now: Date,
  ): Promise<boolean> {
    const rows = await rowsOf(
      conn,
      IdSchema,
      sql`
      UPDATE campaigns SET ab_winner = ${decision.winner}, ab_decided_by = ${decision.decidedBy}, ab_probability = ${decision.probability},
                           ab_decided_at = ${now}, updated_at = ${now},
                           ab_results = ${decision.probabilities === null ? null : JSON.stringify({ probabilities: decision.probabilities })}::jsonb,
                           audience_after = ''
       WHERE id = ${id} AND ab_test IS NOT NULL AND ab_winner IS NULL AND status = 1 AND stopped_at IS NULL AND expired_at IS NULL
      RETURNING id`,
    );
    return rows.length > 0;
  },

  /** Status 2, in one statement for every campaign, once every recipient was written, every message claimed and every batch settled (and a stop swept). */
  async finishDone(conn: Conn, now: Date): Promise<number[]> {
    const rows = await rowsOf(
      conn,
      IdSchema,
      sql`
      UPDATE campaigns c SET status = 2, finished_sending_at = ${now}, updated_at = ${now}
       WHERE c.status = 1 AND c.audience_after IS NULL AND c.next_sequence > c.message_count AND NOT EXISTS (SELECT 1 FROM send_batches b WHERE b.campaign_id = c.id)
         AND (c.stopped_at IS NULL OR c.stop_swept)
         -- An A/B test's rest of the audience is written after its decision (stopped or expired: never).
         AND (c.ab_test IS NULL OR c.ab_winner IS NOT NULL OR c.stopped_at IS NOT NULL OR c.expired_at IS NOT NULL)
      RETURNING c.id`,
    );
    return rows.map((row) => row.id);
  },
};
