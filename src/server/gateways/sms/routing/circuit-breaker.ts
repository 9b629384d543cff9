/**
 * One circuit breaker per connection, in this process: a connection that keeps failing (throttled,
 * down, refusing the account) is left alone for a while instead of being hammered, then probed by
 * one request; the probe's success closes it, its failure opens it again for twice as long.
 * `Retry-After` rests a connection for what the provider asked, without counting as a failure.
 *
 * - closed: every request goes; `threshold` failures in a row open it;
 * - open: none goes until `openUntil`;
 * - half-open (after that): one request (the probe) goes; the others wait as if it were open.
 */
export type CircuitState = 'closed' | 'open' | 'half_open';

export type BreakerOptions = {
  /** Failures in a row that open the circuit. */
  threshold: number;
  /** How long the first opening lasts; each reopening after a failed probe doubles it, up to `maxOpenMs`. */
  openMs: number;
  maxOpenMs: number;
};

export const DEFAULT_BREAKER: BreakerOptions = { threshold: 5, openMs: 15_000, maxOpenMs: 300_000 };

type Breaker = { failures: number; openUntil: number; openMs: number; probing: boolean; restUntil: number; opened: boolean };

export type CircuitChange = { connectionId: number; state: CircuitState; openUntil: Date | null };

export function createCircuitBreakers(options: BreakerOptions = DEFAULT_BREAKER, onChange?: (change: CircuitChange) => void) {
  const breakers = new Map<number, Breaker>();
  const of = (id: number): Breaker => {
    let breaker = breakers.get(id);
    if (!breaker) {
      breaker = { failures: 0, openUntil: 0, openMs: options.openMs, probing: false, restUntil: 0, opened: false };
      breakers.set(id, breaker);
    }
    return breaker;
  };

  const stateOf = (breaker: Breaker, now: number): CircuitState => {
    if (!breaker.opened) return 'closed';
    return now < breaker.openUntil ? 'open' : 'half_open';
  };

  return {
    /** The circuit as a reader (metrics, the dashboard) sees it. */
    state(id: number, now: number): CircuitState {
      return stateOf(of(id), now);
    },
    /** Whether a request could go through the connection now (closed, or half-open with its probe free), taking nothing. */
    available(id: number, now: number, sharedOpenUntil = 0): boolean {
      const breaker = of(id);
      if (now < breaker.restUntil || now < sharedOpenUntil) return false;
      const state = stateOf(breaker, now);
      return state === 'closed' || (state === 'half_open' && !breaker.probing);
    },
    /**
     * Whether a request may go through the connection now, and, in half-open, takes the one probe
     * (release it with success or failure). `sharedOpenUntil`: another process opened the circuit
     * until then (sms_connection_states), which this one respects too.
     */
    admit(id: number, now: number, sharedOpenUntil = 0): boolean {
      const breaker = of(id);
      if (now < breaker.restUntil || now < sharedOpenUntil) return false;
      const state = stateOf(breaker, now);
      if (state === 'closed') return true;
      if (state === 'open' || breaker.probing) return false;
      breaker.probing = true;
      return true;
    },
    success(id: number): void {
      const breaker = of(id);
      const was = breaker.opened;
      breaker.failures = 0;
      breaker.probing = false;
      breaker.opened = false;
      breaker.openMs = options.openMs;
      if (was) onChange?.({ connectionId: id, state: 'closed', openUntil: null });
    },
    /** A failed request (transient or account error): counts towards opening, or reopens after a failed probe. */
    failure(id: number, now: number): void {
      const breaker = of(id);
      breaker.failures += 1;
      const probeFailed = breaker.probing;
      breaker.probing = false;
      if (probeFailed || (!breaker.opened && breaker.failures >= options.threshold)) {
        if (probeFailed) breaker.openMs = Math.min(options.maxOpenMs, breaker.openMs * 2);
        breaker.opened = true;
        breaker.openUntil = now + breaker.openMs;
        onChange?.({ connectionId: id, state: 'open', openUntil: new Date(breaker.openUntil) });
      }
    },
    /** The provider asked to wait (`Retry-After`): nothing goes through the connection until then. */
    rest(id: number, until: number): void {
      const breaker = of(id);
      breaker.restUntil = Math.max(breaker.restUntil, until);
    },
    /** A probe that ended with neither verdict (aborted): the next request may probe. */
    release(id: number): void {
      of(id).probing = false;
    },
    /** Every connection this process has seen, with its state. */
    all(now: number): Array<{ connectionId: number; state: CircuitState }> {
      return [...breakers.entries()].map(([connectionId, breaker]) => ({ connectionId, state: stateOf(breaker, now) }));
    },
  };
}
export type CircuitBreakers = ReturnType<typeof createCircuitBreakers>;
