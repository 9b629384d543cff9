/**
 * Runs the Lighthouse loads in a worker thread, so Lighthouse's own work (trace processing, audits)
 * never stalls the event loop of the Herald being measured, which runs in the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { launchLighthouseBrowser, type LighthouseBrowser, type LighthouseRun } from './lighthouse';

export interface LighthouseJob {
  urls: { app: string; floor: string };
  signIn: { origin: string; email: string; password: string };
  runs: number;
}

export type LighthouseMessage = { log: string } | { done: Record<'app' | 'floor', LighthouseRun[]> } | { error: string };

const fixed = (value: number, digits = 0) => value.toFixed(digits);
const describe = (run: LighthouseRun) =>
  `score ${fixed(run.score)}, LCP ${fixed(run.lcp)} ms, FCP ${fixed(run.fcp)} ms, TBT ${fixed(run.tbt)} ms ` +
  `(observed unthrottled LCP ${fixed(run.observedLcp)} ms), JS ${fixed(run.scriptBytes / 1024, 1)} KiB of ${fixed(run.totalBytes / 1024, 1)} KiB`;

async function run({ urls, signIn, runs: count }: LighthouseJob): Promise<Record<'app' | 'floor', LighthouseRun[]>> {
  const post = (message: LighthouseMessage) => parentPort!.postMessage(message);
  const runs: Record<'app' | 'floor', LighthouseRun[]> = { app: [], floor: [] };
  let browser: LighthouseBrowser | undefined;
  try {
    browser = await launchLighthouseBrowser((line) => post({ log: line }));
    await browser.signIn(signIn.origin, signIn);
    post({ log: 'Lighthouse: signed in through the dashboard; a warm-up load of each page, then the measured ones…' });
    for (let i = -1; i < count; i++) {
      for (const name of ['app', 'floor'] as const) {
        const result = await browser.audit(urls[name]);
        if (!result.finalUrl.startsWith(urls[name])) throw new Error(`Lighthouse on ${urls[name]} ended on ${result.finalUrl} (signed out?)`);
        post({ log: `  ${i < 0 ? 'warm-up' : `run ${i + 1}`} ${name === 'app' ? 'campaigns list' : 'floor table'}: ${describe(result)}` });
        if (i >= 0) runs[name].push(result);
      }
    }
  } finally {
    await browser?.close();
  }
  return runs;
}

run(workerData as LighthouseJob).then(
  (done) => parentPort!.postMessage({ done } satisfies LighthouseMessage),
  (error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies LighthouseMessage),
);
