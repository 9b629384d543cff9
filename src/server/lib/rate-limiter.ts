/** Fixed-window counters in memory, one window per key. */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly windowMs = 60_000) {}

  /** Counts one hit; returns the seconds to wait when `max` is already used up in this window. */
  hit(key: string, max: number, now = Date.now()): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    if (this.windows.size > 50_000) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= max) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
