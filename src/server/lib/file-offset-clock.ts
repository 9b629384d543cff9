import fs from 'node:fs';
import { systemClock, type Clock } from './time';

/** How often the offset file is read again at most: a test that moved the clock sees it take effect within this. */
const RECHECK_MS = 100;

/**
 * The clock of a running Herald under an end-to-end test (HERALD_TEST_CLOCK_FILE): the system's time
 * plus an offset in milliseconds that the test writes to `file` (a whole number, nothing else), so a
 * journey can move a day forward without waiting a day. The file is read at most every 100 ms, when
 * the time is asked for; a missing file is an offset of 0. The offset only grows: a smaller or
 * unreadable value is ignored (with a warning), because every stamp Herald wrote under the larger one
 * (a run's wait, a lease, a request's 48 hours) would otherwise lie in the future.
 */
export function createFileOffsetClock(file: string, options: { warn?: (message: string) => void; recheckMs?: number } = {}): Clock & { offsetMs(): number } {
  const recheckMs = options.recheckMs ?? RECHECK_MS;
  let offset = 0;
  let text: string | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  const read = (real: number) => {
    checkedAt = real;
    let content: string;
    try {
      content = fs.readFileSync(file, 'utf8').trim();
    } catch (error) {
      // Not there (yet): the offset stays. Unreadable: said once, and the offset stays too.
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      if (code !== 'ENOENT' && text !== code) options.warn?.(`HERALD_TEST_CLOCK_FILE: ${file} cannot be read (${code}); the offset stays ${offset}.`);
      text = code;
      return;
    }
    // The same text as last time: nothing to parse, nothing to warn about again.
    if (content === text) return;
    text = content;
    if (!/^\d{1,15}$/.test(content))
      return options.warn?.(`HERALD_TEST_CLOCK_FILE: "${content.slice(0, 40)}" is not a whole number of milliseconds; the offset stays ${offset}.`);
    const next = Number(content);
    if (next < offset) return options.warn?.(`HERALD_TEST_CLOCK_FILE: the offset only moves forward; ${next} is ignored, it stays ${offset}.`);
    offset = next;
  };
  return {
    now() {
      const real = systemClock.now().getTime();
      if (real - checkedAt >= recheckMs) read(real);
      return new Date(real + offset);
    },
    offsetMs: () => offset,
  };
}

/** The clock a Herald process runs on: the system's, unless HERALD_TEST_CLOCK_FILE names an offset file (tests only). */
export function processClock(config: { testClockFile?: string }, warn: (message: string) => void): Clock {
  if (!config.testClockFile) return systemClock;
  warn(
    `HERALD_TEST_CLOCK_FILE is set: this process's clock runs ahead by the offset in ${config.testClockFile}. It is for tests only; never set it in production.`,
  );
  return createFileOffsetClock(config.testClockFile, { warn });
}
