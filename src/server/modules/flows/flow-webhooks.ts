import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { WebhookCaller, WebhookOutcome } from '../../gateways/webhooks/webhook-caller';
import { retryAt, type RetryPolicy } from '../../jobs/retry-policy';
import type { JobQueue } from '../../jobs/runner';
import type { SecretBox } from '../../lib/secret-box';
import type { Clock } from '../../lib/time';

/**
 * A webhook step's call is tried at once, then after about 2, 4, 8 and 16 minutes: five tries over
 * half an hour, which outlasts a receiver's restart or a short outage, and is then given up.
 */
export const FLOW_WEBHOOK_RETRY: RetryPolicy = { baseMs: 2 * 60_000, capMs: 16 * 60_000, maxAttempts: 5 };

/** A call that failed this way may succeed later: no answer (network, timeout), a 5xx, 408 or 429. */
export const retryable = (outcome: WebhookOutcome) =>
  outcome.statusCode === null || outcome.statusCode >= 500 || outcome.statusCode === 408 || outcome.statusCode === 429;

/** A webhook step's call as the advance queues it. */
export type FlowWebhookCall = { runId: number; runUuid: string; stepId: string; url: string; payload: unknown };

const DueSchema = z.object({
  id: z.number(),
  runId: z.number(),
  runUuid: z.string(),
  stepId: z.string(),
  url: z.string(),
  payload: z.unknown(),
  attempts: z.number(),
  secretEncrypted: z.instanceof(Buffer),
});

/**
 * The calls of flows' webhook steps (docs/flows.md, "webhook"), durable: the advance writes each
 * call (`queue`) in the transaction that moves the run past its step, so the step's call commits
 * with the step or not at all, and never twice for one run and step (the table's key). Then
 * `deliverDue` (right after the advance's commit, and the job runner's queue `flow_webhook` every
 * second) takes the due calls `FOR UPDATE SKIP LOCKED` and moves their `next_at` past the call's
 * longest time before calling (the lease: a process that dies mid-call leaves the call to be taken
 * again then, with the same `webhook-id`, so a receiver can tell a repeat). A 2xx delivers it; a
 * retryable failure (`retryable`) is tried again per FLOW_WEBHOOK_RETRY; any other answer (a 3xx,
 * most 4xx: the receiver refused this call, and would refuse it again) or the fifth failure fails it.
 * Each outcome is written on the step's history (`detail`). The run does not wait for the call.
 */
export function createFlowWebhooks(deps: {
  db: Db;
  clock: Clock;
  caller: WebhookCaller;
  secrets: Pick<SecretBox, 'open'>;
  /** How long a taken call is this process's: longer than a call can take (WEBHOOK_TIMEOUT_MS). */
  leaseMs: number;
  onError?: (error: Error) => void;
}) {
  const calling = new Set<Promise<unknown>>();

  async function queue(tx: Tx, calls: FlowWebhookCall[], now: Date): Promise<void> {
    if (calls.length === 0) return;
    await tx.execute(sql`
      INSERT INTO flow_webhook_calls (run_id, step_id, url, payload, next_at, created_at, updated_at)
      SELECT c.run_id, c.step_id, c.url, c.payload, ${now}, ${now}, ${now}
        FROM unnest(${sql.param(calls.map((c) => c.runId))}::bigint[], ${sql.param(calls.map((c) => c.stepId))}::text[],
                    ${sql.param(calls.map((c) => c.url))}::text[], ${sql.param(calls.map((c) => JSON.stringify(c.payload)))}::jsonb[])
             AS c(run_id, step_id, url, payload)
      ON CONFLICT (run_id, step_id) DO NOTHING`);
  }

  /** Takes up to `limit` due calls, leased to this process (their `next_at` moved past the call's longest time), each counted as an attempt. */
  async function take(limit: number) {
    const now = deps.clock.now();
    return rowsOf(
      deps.db,
      DueSchema,
      sql`
      WITH taken AS (
        UPDATE flow_webhook_calls w SET attempts = w.attempts + 1, next_at = ${new Date(now.getTime() + deps.leaseMs)}, updated_at = ${now}
         WHERE w.id IN (SELECT id FROM flow_webhook_calls WHERE state = 'pending' AND next_at <= ${now} ORDER BY next_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING w.id, w.run_id, w.step_id, w.url, w.payload, w.attempts)
      SELECT t.id::int AS id, t.run_id::int AS "runId", r.uuid::text AS "runUuid", t.step_id AS "stepId", t.url, t.payload, t.attempts,
             f.secret_encrypted AS "secretEncrypted"
        FROM taken t JOIN flow_runs r ON r.id = t.run_id JOIN flows f ON f.id = r.flow_id`,
    );
  }

  async function callOne(call: z.output<typeof DueSchema>): Promise<void> {
    const outcome = await deps.caller({
      url: call.url,
      headers: {},
      secret: deps.secrets.open(call.secretEncrypted),
      payload: call.payload,
      id: `flow_${call.runUuid}_${call.stepId}`,
    });
    const now = deps.clock.now();
    const delivered = outcome.error === null;
    const again = delivered || !retryable(outcome) ? null : retryAt(call.attempts, FLOW_WEBHOOK_RETRY, now);
    const state = delivered ? 'delivered' : again ? 'pending' : 'failed';
    const detail = {
      status_code: outcome.statusCode,
      error: outcome.error,
      latency_ms: outcome.latencyMs,
      attempts: call.attempts,
      state,
      next_attempt_at: again?.toISOString() ?? null,
    };
    await deps.db.transaction(async (tx) => {
      await tx.execute(sql`
        UPDATE flow_webhook_calls SET state = ${state}, next_at = ${again ?? now}, last_status = ${outcome.statusCode}, last_error = ${outcome.error},
               updated_at = ${now}
         WHERE id = ${call.id}`);
      await tx.execute(sql`
        UPDATE flow_run_steps SET detail = ${JSON.stringify(detail)}::jsonb WHERE run_id = ${call.runId} AND step_id = ${call.stepId}`);
    });
  }

  /** Calls the due calls, a few at once, until none is due or `stopping()`; answers how many it made. */
  async function deliverDue(stopping: () => boolean = () => false): Promise<number> {
    let made = 0;
    while (!stopping()) {
      const due = await take(8);
      if (due.length === 0) break;
      await Promise.all(due.map(callOne));
      made += due.length;
    }
    return made;
  }

  return {
    queue,
    deliverDue,
    /** Calls what is due now in the background (after the advance's commit: a step's first try is not a second late). */
    kick(): void {
      const run = deliverDue().catch((error: Error) => deps.onError?.(error));
      calling.add(run);
      void run.finally(() => calling.delete(run));
    },
    /** Resolves when the background calls under way have been made (a test's, and a process's stop). */
    async idle(): Promise<void> {
      while (calling.size > 0) await Promise.all([...calling]);
    },
    /** The job runner's queue: the calls due (retries, and any a dead process left). */
    jobQueue: { name: 'flow_webhook', runDue: (stopping) => deliverDue(stopping) } satisfies JobQueue,
  };
}
export type FlowWebhooks = ReturnType<typeof createFlowWebhooks>;
