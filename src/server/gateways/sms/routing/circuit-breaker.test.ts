import { describe, expect, it } from 'vitest';
import { createCircuitBreakers, type CircuitChange } from './circuit-breaker';
import { createPacer } from './pacer';
import { countryOfNumber, ruleFor, senderFor } from './route-rules';

// The router's parts on their own: the breaker's states, the pacer's limits, the route rules.
// Seen red: with `failure` not doubling the opening after a failed probe, "reopens for twice as
// long" failed; with the pacer not counting in-flight requests, "never more than `concurrency`" did.

describe('circuit breaker', () => {
  it('opens after `threshold` failures in a row, lets one probe through once open time is over, and closes on its success', () => {
    const changes: CircuitChange[] = [];
    const breakers = createCircuitBreakers({ threshold: 3, openMs: 1000, maxOpenMs: 10_000 }, (change) => changes.push(change));
    breakers.failure(1, 0);
    breakers.failure(1, 0);
    expect(breakers.state(1, 0)).toBe('closed');
    breakers.success(1); // a success in between starts the count again
    for (let i = 0; i < 3; i++) breakers.failure(1, 100);
    expect(breakers.state(1, 100)).toBe('open');
    expect(breakers.admit(1, 500)).toBe(false);
    expect(breakers.state(1, 1100)).toBe('half_open');
    expect(breakers.available(1, 1100)).toBe(true);
    expect(breakers.admit(1, 1100)).toBe(true); // the probe
    expect(breakers.admit(1, 1100)).toBe(false); // only one
    expect(breakers.available(1, 1100)).toBe(false);
    breakers.success(1);
    expect(breakers.state(1, 1200)).toBe('closed');
    expect(changes.map((c) => c.state)).toEqual(['open', 'closed']);
    expect(breakers.state(2, 0)).toBe('closed'); // connections are apart
  });

  it('reopens for twice as long after a failed probe, up to the most', () => {
    const breakers = createCircuitBreakers({ threshold: 1, openMs: 1000, maxOpenMs: 3000 });
    breakers.failure(1, 0);
    expect(breakers.admit(1, 1000)).toBe(true);
    breakers.failure(1, 1000);
    expect(breakers.state(1, 2999)).toBe('open');
    expect(breakers.state(1, 3000)).toBe('half_open');
    expect(breakers.admit(1, 3000)).toBe(true);
    breakers.failure(1, 3000);
    expect(breakers.state(1, 5999)).toBe('open');
    expect(breakers.state(1, 6000)).toBe('half_open'); // 3000, not 4000
  });

  it('rests a connection as long as Retry-After asked, and respects a circuit another process opened', () => {
    const breakers = createCircuitBreakers();
    breakers.rest(1, 5000);
    expect(breakers.available(1, 4999)).toBe(false);
    expect(breakers.available(1, 5000)).toBe(true);
    expect(breakers.state(1, 0)).toBe('closed');
    expect(breakers.admit(2, 100, 200)).toBe(false);
    expect(breakers.admit(2, 200, 200)).toBe(true);
  });
});

describe('pacer', () => {
  it('never more than `concurrency` requests in flight on one connection', async () => {
    const pacer = createPacer({ concurrency: 2 });
    let inFlight = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        const release = await pacer.take(1, 1, 10_000);
        if (!release) throw new Error('not aborted');
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        release();
      }),
    );
    expect(most).toBe(2);
  });

  it('keeps to max_per_second: a second’s worth at once, the rest as the bucket refills', async () => {
    let now = 0;
    const pacer = createPacer({ concurrency: 100, now: () => now });
    for (let i = 0; i < 5; i++) ((await pacer.take(1, 1, 5)) as () => void)();
    let sixth = false;
    const waiting = pacer.take(1, 1, 5).then((release) => {
      sixth = true;
      if (release) release();
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sixth).toBe(false);
    now = 200; // one token back at 5 a second
    await waiting;
    expect(sixth).toBe(true);
  });

  it('gives up at once when the signal aborts', async () => {
    const pacer = createPacer({ concurrency: 1 });
    const held = (await pacer.take(1, 1, 100)) as () => void;
    const controller = new AbortController();
    const waiting = pacer.take(1, 1, 100, controller.signal);
    controller.abort();
    expect(await waiting).toBe(false);
    held();
  });
});

describe('route rules', () => {
  const rules = [
    { countries: ['GB', 'IE'], connections: ['a', 'b'], sender: null },
    { countries: ['*'], connections: ['c'], sender: 'Shop' },
  ];
  it('takes the first rule covering the number’s country, `*` covering any', () => {
    expect(ruleFor(rules, countryOfNumber('447700900123'))?.connections).toEqual(['a', 'b']);
    expect(ruleFor(rules, countryOfNumber('+353851234567'))?.connections).toEqual(['a', 'b']);
    expect(ruleFor(rules, countryOfNumber('+15005550006'))?.connections).toEqual(['c']);
    expect(ruleFor(rules.slice(0, 1), countryOfNumber('+15005550006'))).toBeUndefined();
  });
  it('sends from the rule’s sender, else the campaign’s when the connection may, else the connection’s first', () => {
    expect(senderFor('Shop', 'Acme', ['+447700900001'])).toBe('Shop');
    expect(senderFor(null, 'Acme', ['+447700900001', 'Acme'])).toBe('Acme');
    expect(senderFor(null, 'Acme', ['+447700900001'])).toBe('+447700900001');
    expect(senderFor(null, 'Acme', [])).toBe('Acme');
  });
});
