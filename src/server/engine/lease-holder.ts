import type { Clock } from '../lib/time';
import type { ClaimStore, Lease } from './engine-store';

/** setTimeout's longest delay; an expiry further away is caught by the renewal loop instead. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Holds a batch's lease while its owner hands it over: renews it every third of the lease, and
 * aborts the hand-over (what has not left yet comes back `notSent`) when the lease was taken over,
 * when it could not be renewed in time (it would run out before the next renewal: another worker
 * may take it over then), or when the campaign expires. Renewal goes on after an abort until
 * `stop()`, so the outcome of what did leave is recorded under the same lease.
 *
 * Processes compare lease times on their own clocks: keep them in sync (NTP) to well within a third
 * of the lease (ENGINE_LEASE_MS, 30 s by default).
 */
export function holdLease(deps: {
  store: Pick<ClaimStore, 'renew'>;
  clock: Clock;
  lease: Lease;
  leaseMs: number;
  expiryDate: Date;
  log?: (message: string) => void;
}): { signal: AbortSignal; stop(): void } {
  const { store, clock, lease, leaseMs } = deps;
  const controller = new AbortController();
  const every = Math.max(10, Math.floor(leaseMs / 3));
  // The lease was just set (markSubmitting) to run leaseMs from now.
  let heldUntil = clock.now().getTime() + leaseMs;
  let renewing = false;

  const abort = (why: string) => {
    if (controller.signal.aborted) return;
    controller.abort(new Error(why));
    deps.log?.(`batch ${lease.batchId}: ${why}; nothing more of it is handed over`);
  };

  const renew = async () => {
    const now = clock.now();
    if (now >= deps.expiryDate) abort('the campaign expired');
    if (renewing) return;
    renewing = true;
    try {
      if (await store.renew(lease, now, leaseMs)) heldUntil = now.getTime() + leaseMs;
      else abort('the lease was taken over');
    } catch (error) {
      deps.log?.(`batch ${lease.batchId}: lease not renewed: ${error instanceof Error ? error.message : error}`);
    } finally {
      renewing = false;
    }
    // Not renewed, and it would run out before the next attempt: stop while it is still ours.
    if (clock.now().getTime() + every >= heldUntil) abort('the lease could not be renewed in time');
  };

  const interval = setInterval(() => void renew(), every);
  const untilExpiry = deps.expiryDate.getTime() - clock.now().getTime();
  const expiryTimer = untilExpiry < MAX_TIMER_MS ? setTimeout(() => abort('the campaign expired'), Math.max(0, untilExpiry)) : undefined;
  if (untilExpiry <= 0) abort('the campaign expired');
  return {
    signal: controller.signal,
    stop() {
      clearInterval(interval);
      clearTimeout(expiryTimer);
    },
  };
}
