import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const PROCESS_TESTS = [
  'src/server/main.test.ts',
  'src/server/engine/crash.test.ts',
  'src/server/engine/scale-out.test.ts',
  'src/server/engine/smpp-send.test.ts',
  'src/server/engine/database-outage.test.ts',
  'src/server/engine/chaos.test.ts',
  'src/server/engine/provider-failover.test.ts',
  'src/server/http/load.test.ts',
  'src/server/deploy.test.ts',
  'src/server/first-start.test.ts',
  'src/server/observability/processes.test.ts',
  'src/server/db/backup.test.ts',
  'src/server/split-roles.test.ts',
  'src/server/observability/logs.test.ts',
  'src/server/modules/event-endpoints/event-crash.test.ts',
  'src/server/modules/imports/workbook-bomb.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/shared/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'service',
          environment: 'node',
          include: ['src/server/**/*.test.ts'],
          exclude: PROCESS_TESTS,
          globalSetup: ['src/server/testing/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Tests that run Herald as processes (crash, scale-out, SMPP, outage, chaos, load): after every other
        // project has finished (groupOrder) and one file at a time, so their load slows no other test.
        test: {
          name: 'process',
          environment: 'node',
          include: PROCESS_TESTS,
          globalSetup: ['src/server/testing/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'app',
          environment: 'jsdom',
          include: ['src/app/**/*.test.tsx', 'src/app/**/*.test.ts'],
          setupFiles: ['src/app/testing/setup.ts'],
          css: false,
          // A form test types and waits on Mantine's rendering in jsdom: 1–3 s on a quiet two-core machine,
          // several times that while the service tests run beside it. Vitest's 5 s failed such tests
          // under load (not for what they check); speed is measured in benchmarks, never here.
          testTimeout: 20_000,
        },
      },
    ],
  },
});
