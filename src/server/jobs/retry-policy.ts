/**
 * The one retry policy of Herald's background jobs: after a failed attempt, the job waits `baseMs`
 * doubled for each attempt before it, at most `capMs`, and up to a tenth sooner at random (jobs that
 * failed together, say when the mail server was down, are not all tried again at the same moment; the
 * jitter only shortens a wait, so no retry comes later than its documented delay). A job is
 * given up after `maxAttempts` attempts, or once its next attempt would fall past its `until`.
 * Each queue states its policy as these parameters (docs/operations.md, "Background jobs").
 */
export type RetryPolicy = {
  /** The wait after the first failed attempt. */
  baseMs: number;
  /** The longest wait between two attempts. */
  capMs: number;
  /** Attempts before the job is given up (none: only `until` ends it). */
  maxAttempts?: number;
};

/** How much sooner than its exponential delay a retry may come, at random. */
export const RETRY_JITTER = 0.1;

/** The wait after the `attempts`-th failed attempt (1: the first): exponential, capped, up to a tenth shorter at random. */
export function retryDelayMs(attempts: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponential = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
  return exponential * (1 - RETRY_JITTER * random());
}

/**
 * When a job whose `attempts`-th attempt just failed is tried again, or null when it is given up:
 * `maxAttempts` reached, or the retry would fall past `until` (the job's deadline, if it has one).
 */
export function retryAt(attempts: number, policy: RetryPolicy, now: Date, options: { until?: Date; random?: () => number } = {}): Date | null {
  if (policy.maxAttempts !== undefined && attempts >= policy.maxAttempts) return null;
  const at = new Date(now.getTime() + retryDelayMs(attempts, policy, options.random));
  return options.until && at.getTime() > options.until.getTime() ? null : at;
}
