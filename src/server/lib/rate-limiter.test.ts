import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  it('allows max hits a window, then says how long to wait, then allows again', () => {
    const limiter = new RateLimiter(60_000);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.hit('k', 3, t0 + i)).toEqual({ allowed: true });
    expect(limiter.hit('k', 3, t0 + 15_000)).toEqual({ allowed: false, retryAfterSeconds: 45 });
    expect(limiter.hit('other', 3, t0 + 15_000)).toEqual({ allowed: true });
    expect(limiter.hit('k', 3, t0 + 60_000)).toEqual({ allowed: true });
  });
});
