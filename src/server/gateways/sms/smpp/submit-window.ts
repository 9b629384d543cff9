/** At most `size` submit_sm outstanding at once (SMPP windowing); waiters are served first come, first served. */
export function createWindow(size: number) {
  let outstanding = 0;
  const waiting: Array<() => void> = [];
  return {
    acquire(): Promise<void> {
      if (outstanding < size) {
        outstanding++;
        return Promise.resolve();
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    release(): void {
      const next = waiting.shift();
      // The slot passes straight to the next waiter, so a newcomer cannot overtake it.
      if (next) next();
      else outstanding--;
    },
  };
}

/**
 * Back-off shared by every message: when the SMSC throttles, the whole gateway pauses (exponential
 * from `minMs`, capped at `maxMs`), because sending anything else during the pause only earns more
 * throttling. Throttle answers to PDUs sent before the pause began do not lengthen it.
 */
export function createThrottleBackoff(options: { minMs: number; maxMs: number }) {
  let pausedUntil = 0;
  let level = 0;
  const sleepers = new Set<() => void>();

  return {
    /** Returns the pause begun, or 0 when a pause was already running. */
    throttled(): number {
      const now = Date.now();
      if (now < pausedUntil) return 0;
      const pause = Math.min(options.maxMs, options.minMs * 2 ** level);
      level++;
      pausedUntil = now + pause;
      return pause;
    },
    accepted(): void {
      level = 0;
    },
    /** Waits out the current pause, if any. */
    async wait(): Promise<void> {
      for (let rest = pausedUntil - Date.now(); rest > 0; rest = pausedUntil - Date.now()) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            sleepers.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, rest);
          sleepers.add(wake);
        });
        if (pausedUntil === 0) return;
      }
    },
    /** Ends every wait now (the gateway is closing). */
    stop(): void {
      pausedUntil = 0;
      for (const wake of [...sleepers]) wake();
    },
  };
}
