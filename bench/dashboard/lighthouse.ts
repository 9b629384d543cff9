/**
 * Lighthouse (desktop preset, performance only, its default simulated throttling) in Debian's Chromium,
 * started by chrome-launcher on a fresh profile. The dashboard is signed in once through its own sign-in
 * form (puppeteer-core on the same Chrome); the session lives in localStorage, which Lighthouse's
 * storage reset leaves alone (it clears the HTTP cache, service workers and Cache Storage), so every
 * measured load is a cold-cache load of a signed-in user.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config, type Result } from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROME_FLAGS, CHROMIUM } from '../../scripts/chromium';

export interface LighthouseRun {
  score: number;
  /** Simulated (desktop throttling) metrics, ms. */
  lcp: number;
  fcp: number;
  tbt: number;
  /** LCP of the trace Lighthouse recorded, before simulation: the real, unthrottled load on localhost. */
  observedLcp: number;
  scriptBytes: number;
  totalBytes: number;
  finalUrl: string;
  lighthouseVersion: string;
}

const CONFIG: Config = { ...desktopConfig, settings: { ...desktopConfig.settings, onlyCategories: ['performance'] } };

function numeric(result: Result, audit: string): number {
  const value = result.audits[audit]?.numericValue;
  if (typeof value !== 'number')
    throw new Error(`Lighthouse gave no ${audit}: ${result.audits[audit]?.errorMessage ?? result.runtimeError?.message ?? 'no value'}`);
  return value;
}

function summarise(result: Result): LighthouseRun {
  if (result.runtimeError) throw new Error(`Lighthouse: ${result.runtimeError.code} ${result.runtimeError.message}`);
  const score = result.categories.performance?.score;
  if (typeof score !== 'number') throw new Error('Lighthouse gave no performance score.');
  const metrics = (result.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0] ?? {};
  const resources = (result.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? [];
  return {
    score: score * 100,
    lcp: numeric(result, 'largest-contentful-paint'),
    fcp: numeric(result, 'first-contentful-paint'),
    tbt: numeric(result, 'total-blocking-time'),
    observedLcp: metrics.observedLargestContentfulPaint ?? NaN,
    scriptBytes: resources.find((item) => item.resourceType === 'script')?.transferSize ?? 0,
    totalBytes: resources.find((item) => item.resourceType === 'total')?.transferSize ?? 0,
    finalUrl: result.finalDisplayedUrl,
    lighthouseVersion: result.lighthouseVersion,
  };
}

export interface LighthouseBrowser {
  /** Signs in through the dashboard's own form; the session stays in this profile's localStorage. */
  signIn(origin: string, credentials: { email: string; password: string }): Promise<void>;
  audit(url: string): Promise<LighthouseRun>;
  close(): Promise<void>;
}

export async function launchLighthouseBrowser(log: (line: string) => void = console.log): Promise<LighthouseBrowser> {
  const userDataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-bench-chrome-'));
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.disconnect().catch(() => undefined);
    chrome?.kill();
    await fs.rm(userDataDir, { recursive: true, force: true }).catch(() => undefined);
  };
  try {
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, userDataDir, logLevel: 'error' });
    browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    const port = chrome.port;
    return {
      async signIn(origin, { email, password }) {
        await page.goto(`${origin}/sign-in`, { waitUntil: 'networkidle0' });
        await page.locator('input[autocomplete="username"]').fill(email);
        await page.locator('input[autocomplete="current-password"]').fill(password);
        await page.locator('button[type="submit"]').click();
        await page.waitForSelector('table[aria-label="Campaigns"]', { timeout: 30_000 });
      },
      async audit(url) {
        // Lighthouse 12.2 now and then loses the trace in this newer Chromium (NO_NAVSTART): run it again.
        let result = await lighthouse(url, { port, output: 'json', logLevel: 'error' }, CONFIG, page);
        for (let retry = 0; retry < 2 && result?.lhr.runtimeError; retry++) {
          log(`  (Lighthouse ${result.lhr.runtimeError.code} on ${url}: running it again)`);
          result = await lighthouse(url, { port, output: 'json', logLevel: 'error' }, CONFIG, page);
        }
        if (!result) throw new Error('Lighthouse returned nothing.');
        // For a person investigating: the last report of each page, to open in the Lighthouse viewer.
        const reportDir = process.env.BENCH_LIGHTHOUSE_REPORTS;
        if (reportDir)
          await fs.writeFile(path.join(reportDir, `${new URL(url).port}${new URL(url).pathname.replace(/\W+/g, '-')}.json`), result.report as string);
        return summarise(result.lhr);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
