/** The job was taken by another runner since this attempt took it: the attempt stops, and records nothing. */
export class LeaseLost extends Error {
  constructor(what = 'the job') {
    super(`${what} was taken over by another worker`);
  }
}

/**
 * Keeps a job's lease while a runner works on it: `renew` (fenced by the token of the claim, so it
 * answers false once another runner holds the job) every third of the lease, and `signal` aborts when
 * a renewal is refused. A renewal that fails (the database is unreachable) goes to `onError` and is
 * tried again at the next tick: the job's fenced steps still stop the attempt if it was taken over
 * meanwhile. `stop()` waits for a renewal under way, so none lands after the job's last step.
 */
export function holdLease(deps: { renew: () => Promise<boolean>; leaseMs: number; onError: (error: unknown) => void }): {
  signal: AbortSignal;
  renewNow(): Promise<boolean>;
  stop(): Promise<void>;
} {
  const controller = new AbortController();
  let renewing: Promise<boolean> | undefined;

  const renew = async (): Promise<boolean> => {
    const ours = await deps.renew();
    if (!ours) controller.abort(new LeaseLost());
    return ours;
  };
  const tick = () => {
    if (renewing || controller.signal.aborted) return;
    renewing = renew()
      .catch((error: unknown) => {
        deps.onError(error);
        return true;
      })
      .finally(() => (renewing = undefined));
  };

  const interval = setInterval(tick, Math.max(10, Math.floor(deps.leaseMs / 3)));
  interval.unref();
  return {
    signal: controller.signal,
    async renewNow() {
      await renewing;
      return renew();
    },
    async stop() {
      clearInterval(interval);
      await renewing;
    },
  };
}
