/**
 * Each connection's pace in this process: at most `max_per_second` messages a second (a token bucket
 * holding one second's worth, so a quiet connection may send a second's worth at once), and at most
 * `concurrency` requests in flight (a provider answers one request in tens of milliseconds; enough
 * requests side by side keep thousands of messages a second flowing through one account).
 */
export type Pacer = {
  /** Requests in flight to one connection at most. */
  readonly concurrency: number;
  /**
   * Waits until `count` messages may go through the connection and a request slot is free; false
   * when the signal aborted first (nothing was taken). Call the returned release when the request ends.
   */
  take(connectionId: number, count: number, perSecond: number, signal?: AbortSignal): Promise<(() => void) | false>;
};

type Bucket = { tokens: number; at: number; inFlight: number; waiting: Array<() => void> };

export function createPacer(options: { concurrency: number; now?: () => number }): Pacer {
  const now = options.now ?? (() => performance.now());
  const buckets = new Map<number, Bucket>();

  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });

  return {
    concurrency: options.concurrency,
    async take(connectionId, count, perSecond, signal) {
      let bucket = buckets.get(connectionId);
      if (!bucket) {
        bucket = { tokens: perSecond, at: now(), inFlight: 0, waiting: [] };
        buckets.set(connectionId, bucket);
      }
      const b = bucket;
      // A request slot first, in arrival order. A waiter that gives up (its signal aborted) leaves the
      // queue, so a released slot always wakes one still waiting; and one that is woken stops
      // listening, so a batch's thousand waits leave no thousand listeners on the engine's signal.
      while (b.inFlight >= options.concurrency) {
        if (signal?.aborted) return false;
        await new Promise<void>((resolve) => {
          const wake = () => {
            signal?.removeEventListener('abort', abort);
            resolve();
          };
          const abort = () => {
            const at = b.waiting.indexOf(wake);
            if (at >= 0) b.waiting.splice(at, 1);
            resolve();
          };
          b.waiting.push(wake);
          signal?.addEventListener('abort', abort, { once: true });
        });
      }
      if (signal?.aborted) return false;
      b.inFlight += 1;
      const release = () => {
        b.inFlight -= 1;
        b.waiting.shift()?.();
      };
      // Then the messages' share of the second. A call larger than a second's worth (a batch provider
      // under a low limit) waits until the bucket is full and takes it into debt, so it still goes.
      for (;;) {
        const at = now();
        b.tokens = Math.min(perSecond, b.tokens + ((at - b.at) * perSecond) / 1000);
        b.at = at;
        const needed = Math.min(count, perSecond);
        if (b.tokens >= needed) {
          b.tokens -= count;
          return release;
        }
        if (signal?.aborted) {
          release();
          return false;
        }
        await sleep(Math.ceil(((needed - b.tokens) * 1000) / perSecond), signal);
      }
    },
  };
}
