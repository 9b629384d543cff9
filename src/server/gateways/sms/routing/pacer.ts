/**
 * Each connection's pace: at most `max_per_second` messages a second, and at most `concurrency`
 * requests in flight in this process (a provider answers one request in tens of milliseconds; enough
 * requests side by side keep thousands of messages a second flowing through one account).
 *
 * With `shared` (production), the second's allowance is shared by every sending process: each takes
 * its share from the database in chunks of a tenth of a second's worth (so a busy connection costs
 * about ten small transactions a second, not one a message), and waits for the next second when the
 * second is spent. A share taken and not used by the second's end is lost, so the connection may send
 * a little less than its limit, never more. Should the database not answer, the process goes on at
 * most at the limit on its own, rather than stop sending. Without `shared` (tests), a token bucket in this process
 * holding one second's worth.
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

type Bucket = {
  tokens: number;
  at: number;
  inFlight: number;
  waiting: Array<() => void>;
  /** Shared mode: the second (epoch seconds) `tokens` were granted for, whether it is spent, and the grant being asked. */
  second: number;
  /** Granted for `second` so far. */
  granted: number;
  spent: boolean;
  asking?: Promise<void>;
};

/** Takes up to `want` of a connection's `limit` for a second from the allowance all processes share; how many were granted. */
export type SharedGrant = (connectionId: number, second: Date, want: number, limit: number) => Promise<number>;

export function createPacer(options: { concurrency: number; now?: () => number; shared?: SharedGrant; wallClock?: () => number }): Pacer {
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

  const wallClock = options.wallClock ?? (() => Date.now());

  /** Shared mode: `count` messages' share of the current second, asked for in chunks; false when aborted. */
  async function takeShared(b: Bucket, connectionId: number, count: number, perSecond: number, shared: SharedGrant, signal?: AbortSignal): Promise<boolean> {
    // A call larger than a second's worth (a batch provider under a low limit) goes on a whole second's.
    const needed = Math.min(count, perSecond);
    for (;;) {
      if (signal?.aborted) return false;
      const at = wallClock();
      const second = Math.floor(at / 1000);
      if (b.second !== second) {
        b.second = second;
        b.tokens = 0;
        b.granted = 0;
        b.spent = false;
      }
      if (b.tokens >= needed) {
        b.tokens -= needed;
        return true;
      }
      if (b.spent) {
        await sleep(1000 - (at % 1000), signal);
        continue;
      }
      b.asking ??= shared(connectionId, new Date(second * 1000), Math.max(needed, Math.ceil(perSecond / 10)), perSecond)
        // The database is away: the rest of a second's worth for this process alone, rather than nothing.
        .catch(() => Math.max(0, perSecond - b.granted))
        .then((granted) => {
          if (b.second !== second) return;
          b.tokens += granted;
          b.granted += granted;
          if (granted === 0) b.spent = true;
        })
        .finally(() => {
          b.asking = undefined;
        });
      await b.asking;
    }
  }

  return {
    concurrency: options.concurrency,
    async take(connectionId, count, perSecond, signal) {
      let bucket = buckets.get(connectionId);
      if (!bucket) {
        bucket = { tokens: options.shared ? 0 : perSecond, at: now(), inFlight: 0, waiting: [], second: 0, granted: 0, spent: false };
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
      if (options.shared) {
        const taken = await takeShared(b, connectionId, count, perSecond, options.shared, signal);
        if (taken) return release;
        release();
        return false;
      }
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
