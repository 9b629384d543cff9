import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROME_FLAGS, CHROMIUM } from './scripts/chromium';

const PORT = 8199;
// Every run starts from an empty service: a fresh data folder, so the embedded database is new.
// Workers load this file again; the environment they inherit keeps them on the same folder.
process.env.HERALD_E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'herald-e2e-'));
const dataDir = process.env.HERALD_E2E_DATA_DIR;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/artifacts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1280, height: 800 },
    // The dashboard writes figures and times in the browser's language: the journeys read en-GB.
    locale: 'en-GB',
    launchOptions: { executablePath: CHROMIUM, args: CHROME_FLAGS },
  },
  // The sweep of every page (accessibility.spec.ts) seeds a sent campaign and a pending invitation in
  // the admin's team, which journeys that expect none would find: it runs after them all, over the data
  // they leave too.
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' }, testIgnore: /accessibility\.spec\.ts$/ },
    { name: 'sweep', use: { browserName: 'chromium' }, testMatch: /accessibility\.spec\.ts$/, dependencies: ['chromium'] },
  ],
  webServer: {
    // Node itself (no npx/tsx wrapper processes), so SIGTERM reaches Herald and it stops its database.
    command: 'node --max-semi-space-size=64 --import tsx src/server/main.ts',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    url: `http://localhost:${PORT}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      PUBLIC_URL: `http://localhost:${PORT}`,
      DATA_DIR: dataDir,
      HERALD_ADMIN_EMAIL: 'admin@herald.test',
      HERALD_ADMIN_PASSWORD: 'correct-horse-battery',
      // The event endpoints spec calls a receiver it starts on 127.0.0.1; the guard itself is tested in webhook-caller.test.ts.
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
  },
});
