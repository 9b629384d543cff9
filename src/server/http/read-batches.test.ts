import { describe, expect, it } from 'vitest';
import { createReadBatches } from './shared-reads';

/** A read the test finishes by hand, recording when it started. */
function gate<T>(log: string[], name: string, value: T) {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const read = () => {
    log.push(`start ${name}`);
    return new Promise<T>((resolve, reject) => {
      open = () => resolve(value);
      fail = reject;
    });
  };
  return { read, open: () => open(), fail: (error: Error) => fail(error) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('read batches', () => {
  it('runs a lone read at once and forgets its key afterwards', async () => {
    const batches = createReadBatches();
    await expect(batches.run('k', async () => 'answer')).resolves.toBe('answer');
    expect(batches.active).toBe(0);
  });

  it('answers requests that arrive during a read with one read started after them, never with the running one', async () => {
    const batches = createReadBatches();
    const log: string[] = [];
    const first = gate(log, 'first', 'old rows');
    const second = gate(log, 'second', 'new rows');
    const third = gate(log, 'third', 'unused');

    const a = batches.run('k', first.read);
    const b = batches.run('k', second.read);
    const c = batches.run('k', third.read);
    await settle();
    expect(log).toEqual(['start first']); // b and c wait: at most one read per key

    first.open();
    await expect(a).resolves.toBe('old rows');
    await settle();
    expect(log).toEqual(['start first', 'start second']); // one read for both waiters, started after they arrived
    second.open();
    await expect(b).resolves.toBe('new rows');
    await expect(c).resolves.toBe('new rows');
    await settle();
    expect(log).not.toContain('start third');
    expect(batches.active).toBe(0);
  });

  it('reads different keys side by side', async () => {
    const batches = createReadBatches();
    const log: string[] = [];
    const teamA = gate(log, 'team A', 'A');
    const teamB = gate(log, 'team B', 'B');
    const a = batches.run('team 1 GET /templates/', teamA.read);
    const b = batches.run('team 2 GET /templates/', teamB.read);
    await settle();
    expect(log).toEqual(['start team A', 'start team B']);
    teamB.open();
    teamA.open();
    expect(await Promise.all([a, b])).toEqual(['A', 'B']);
  });

  it('gives a failure to exactly the requests of the failed read, and goes on with the next', async () => {
    const batches = createReadBatches();
    const log: string[] = [];
    const first = gate(log, 'first', 'first rows');
    const second = gate(log, 'second', 'unused');
    const third = gate(log, 'third', 'third rows');

    const a = batches.run('k', first.read);
    const b = batches.run('k', second.read);
    const c = batches.run('k', async () => 'unused');
    await settle();
    first.open();
    await expect(a).resolves.toBe('first rows');
    await settle();
    const d = batches.run('k', third.read); // arrives while the second read runs
    second.fail(new Error('connection lost'));
    await expect(b).rejects.toThrow('connection lost');
    await expect(c).rejects.toThrow('connection lost');
    await settle();
    third.open();
    await expect(d).resolves.toBe('third rows');
    expect(batches.active).toBe(0);
  });
});
