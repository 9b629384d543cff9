/**
 * The test clock of a running Herald (HERALD_TEST_CLOCK_FILE): the system's time plus the file's
 * offset, read again when it changes, only ever moving forward; and absent from a normal start.
 *
 * Seen red: with the forward-only check removed ("a smaller offset is ignored" read the earlier time),
 * and with processClock building the offset clock whatever the config (the normal start was not the
 * system clock).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileOffsetClock, processClock } from './file-offset-clock';
import { systemClock } from './time';

const DAY_MS = 86_400_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-clock-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `clock.now()` minus the system's time around the call: the offset it applied, within the call's own duration. */
function aheadBy(clock: { now(): Date }): [number, number] {
  const before = Date.now();
  const now = clock.now().getTime();
  const after = Date.now();
  return [now - after, now - before];
}

describe('createFileOffsetClock', () => {
  it('runs on the system time while the file is missing, then ahead by what a test writes, and never back', () => {
    const file = path.join(dir, 'offset');
    const warnings: string[] = [];
    const clock = createFileOffsetClock(file, { warn: (message) => warnings.push(message), recheckMs: 0 });
    const [low0, high0] = aheadBy(clock);
    expect(low0).toBeLessThanOrEqual(0);
    expect(high0).toBeGreaterThanOrEqual(0);

    fs.writeFileSync(file, `${DAY_MS}\n`);
    const [low1, high1] = aheadBy(clock);
    expect(low1).toBeLessThanOrEqual(DAY_MS);
    expect(high1).toBeGreaterThanOrEqual(DAY_MS);
    expect(clock.offsetMs()).toBe(DAY_MS);

    // A smaller offset would put every stamp written since in the future: it is ignored, and said so.
    fs.writeFileSync(file, '60000');
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(Date.now() + DAY_MS - 5);
    expect(clock.offsetMs()).toBe(DAY_MS);
    fs.writeFileSync(file, 'tomorrow');
    clock.now();
    expect(clock.offsetMs()).toBe(DAY_MS);
    expect(warnings).toEqual([expect.stringContaining('only moves forward'), expect.stringContaining('not a whole number')]);

    fs.writeFileSync(file, String(2 * DAY_MS));
    expect(clock.offsetMs()).toBe(DAY_MS); // read when the time is next asked for
    clock.now();
    expect(clock.offsetMs()).toBe(2 * DAY_MS);
    // The same text again is not warned about again.
    clock.now();
    expect(warnings).toHaveLength(2);
  });

  it('reads the file at most every recheckMs, so asking the time stays cheap', () => {
    const file = path.join(dir, 'throttled');
    fs.writeFileSync(file, '1000');
    const clock = createFileOffsetClock(file, { recheckMs: 60_000 });
    clock.now();
    expect(clock.offsetMs()).toBe(1000);
    fs.writeFileSync(file, String(DAY_MS));
    clock.now();
    expect(clock.offsetMs()).toBe(1000);
  });
});

describe('processClock', () => {
  it('is the system clock in a normal start, without a word', () => {
    const warnings: string[] = [];
    expect(processClock({}, (message) => warnings.push(message))).toBe(systemClock);
    expect(warnings).toEqual([]);
  });

  it('is the offset clock when HERALD_TEST_CLOCK_FILE is set, and warns that it is for tests only', () => {
    const file = path.join(dir, 'process');
    fs.writeFileSync(file, String(DAY_MS));
    const warnings: string[] = [];
    const clock = processClock({ testClockFile: file }, (message) => warnings.push(message));
    expect(clock).not.toBe(systemClock);
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(Date.now() + DAY_MS - 5);
    expect(warnings).toEqual([expect.stringContaining('for tests only')]);
  });
});
