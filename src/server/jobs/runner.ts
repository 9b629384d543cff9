import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import type { Clock } from '../lib/time';

/**
 * A queue of background jobs the runner works through. The jobs stay in the queue's own table (a
 * report job, an account e-mail, an event delivery): `runDue` takes the due ones (SKIP LOCKED, under a
 * lease), runs them and records each outcome, with the retry policy (retry-policy.ts) on failure.
 */
export type JobQueue = {
  /** The queue's name in the metric and the admin list (`report`, `account_mail`, `event_delivery`). */
  name: string;
  /** Takes and runs the due jobs, until none is left or `stopping()`; how many it ran. */
  runDue(stopping: () => boolean): Promise<number>;
};

/**
 * Work done every `everyMs` by one process of all that share the database (`job_schedules` says
 * when it is next due; the process whose claim moves that on runs it). `atStart`: also once when
 * each runner starts, whatever the schedule says (tidying after a restart); without `everyMs`, only then.
 */
export type PeriodicJob = { name: string; everyMs?: number; atStart?: boolean; run(): Promise<void> };

export type JobRunnerOptions = {
  /** How often the runner looks for due jobs and periodic work (default 1 s). */
  pollMs?: number;
};

type Log = (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;

const ClaimedSchema = z.object({ name: z.string() });
/** How often the periodic jobs' schedule is asked which are due. */
const PERIODIC_CLAIM_MS = 5_000;

/**
 * Herald's one job runner: one polling loop for every queue and periodic job of the process. Each
 * pass starts every queue that is not already running here (a queue never runs twice at once in one
 * process; a long report does not hold the e-mails back), and claims the periodic jobs that are due
 * across processes. `stop` ends the loop and waits for the work under way: its outcomes are recorded
 * before the process ends.
 */
export function createJobRunner(deps: { db: Db; clock: Clock; log: Log; queues?: JobQueue[]; periodic?: PeriodicJob[]; options?: JobRunnerOptions }) {
  const queues = deps.queues ?? [];
  const periodic = deps.periodic ?? [];
  const pollMs = deps.options?.pollMs ?? 1_000;
  const busy = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  let stopped = true;
  const stopping = () => stopped;

  const track = (key: string, work: () => Promise<unknown>, failed: string) => {
    if (busy.has(key)) return;
    const run = Promise.resolve()
      .then(work)
      .then(
        () => undefined,
        (error: unknown) => deps.log('error', failed, { job: key, reason: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => busy.delete(key));
    busy.set(key, run);
  };

  /** Moves on the schedule of each periodic job that is due, in one statement; the names this process claimed. */
  const claimDue = async (all: PeriodicJob[]): Promise<Set<string>> => {
    const jobs = all.filter((job): job is PeriodicJob & { everyMs: number } => job.everyMs !== undefined);
    if (jobs.length === 0) return new Set();
    const now = deps.clock.now();
    const rows = await rowsOf(
      deps.db,
      ClaimedSchema,
      sql`
      INSERT INTO job_schedules (name, next_run_at, last_run_at)
      SELECT n, ${now}::timestamptz + make_interval(secs => ms / 1000.0), ${now}
        FROM unnest(${sql.param(jobs.map((job) => job.name))}::text[], ${sql.param(jobs.map((job) => job.everyMs))}::bigint[]) AS j(n, ms)
      ON CONFLICT (name) DO UPDATE SET next_run_at = excluded.next_run_at, last_run_at = excluded.last_run_at
       WHERE job_schedules.next_run_at <= ${now}
      RETURNING name`,
    );
    return new Set(rows.map((row) => row.name));
  };

  let nextClaimAt = 0;
  const runPass = async (first: boolean) => {
    for (const queue of queues) track(`queue:${queue.name}`, () => queue.runDue(stopping), 'background jobs could not be run');
    const free = periodic.filter((job) => !busy.has(`periodic:${job.name}`));
    // Periodic jobs are due a minute apart or more: their schedule is asked at most every few seconds.
    const claiming = first || Date.now() >= nextClaimAt;
    if (claiming) nextClaimAt = Date.now() + PERIODIC_CLAIM_MS;
    const due = claiming ? await claimDue(free) : new Set<string>();
    for (const job of free) if (due.has(job.name) || (first && job.atStart)) track(`periodic:${job.name}`, () => job.run(), 'a periodic job failed');
  };

  const loop = (first: boolean) => {
    pass = runPass(first)
      .catch((error: unknown) => deps.log('error', 'periodic jobs could not be claimed', { reason: error instanceof Error ? error.message : String(error) }))
      .finally(() => {
        pass = undefined;
        if (!stopped) timer = setTimeout(() => loop(false), pollMs);
      });
  };

  return {
    /** One pass now, then one every `pollMs`. */
    start(): void {
      if (!stopped) return;
      stopped = false;
      loop(true);
    },
    /** Stops taking jobs and waits for those under way (a queue's `runDue` sees `stopping()`). */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await pass;
      await Promise.all(busy.values());
    },
  };
}
export type JobRunner = ReturnType<typeof createJobRunner>;
