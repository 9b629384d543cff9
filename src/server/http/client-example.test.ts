/**
 * The TypeScript client example of docs/api.md, run as a reader would run it (issue 23, point 4):
 * types generated from openapi.json with openapi-typescript, the example's code block type-checked
 * against them with openapi-fetch's types, then run with tsx against a live Herald over a socket
 * (a team whose last campaign went to three people), and what it printed and stored read back.
 *
 * Seen red: with the example's `sort` changed to a value the list does not take (`-name_x`: tsc
 * refused it, TS2820), and with the ETag hook left out of app.ts (it printed 200 where 304 was
 * expected).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentReportCampaign } from '../testing/report-campaign';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../testing/test-app';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../..');
const bin = (relative: string) => path.join(ROOT, 'node_modules', relative);

/** The one code block of docs/api.md marked `ts example`. */
async function exampleOfDocs(): Promise<string> {
  const text = await fs.readFile(path.join(ROOT, 'docs/api.md'), 'utf8');
  const blocks = [...text.matchAll(/^```ts example\n([\s\S]*?)^```$/gm)];
  expect(blocks).toHaveLength(1);
  return blocks[0]![1]!;
}

const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let editor: TestUser;
let url: string;
let folder: string;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  editor = await t.user({ team: 'Example Co' });
  await sentReportCampaign(t, { token: editor.token, clock, name: 'June newsletter', contacts: 3 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-client-example-'));
  // The reader's project: the example beside the generated types, with the packages it installs.
  await fs.symlink(path.join(ROOT, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
  await fs.writeFile(path.join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
  await fs.writeFile(path.join(folder, 'herald-example.ts'), await exampleOfDocs());
  await fs.writeFile(
    path.join(folder, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
      files: ['herald-example.ts', 'herald-api.d.ts'],
    }),
  );
}, 120_000);
afterAll(async () => {
  await t.close();
  if (folder) await fs.rm(folder, { recursive: true, force: true });
});

describe('the TypeScript client example of docs/api.md', () => {
  it('generates its types from openapi.json, type-checks, and does what it says against a live Herald', { timeout: 180_000 }, async () => {
    await run(process.execPath, [bin('openapi-typescript/bin/cli.js'), path.join(ROOT, 'openapi.json'), '-o', path.join(folder, 'herald-api.d.ts')], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(await fs.readFile(path.join(folder, 'herald-api.d.ts'), 'utf8')).toContain('"/api/2.0/campaigns/{campaign_uuid}"');

    const checked = await run(process.execPath, [bin('typescript/bin/tsc'), '-p', folder]).catch((error: { stdout: string }) => error);
    expect(checked.stdout).toBe('');

    const { stdout } = await run(process.execPath, [bin('tsx/dist/cli.mjs'), path.join(folder, 'herald-example.ts')], {
      cwd: folder,
      env: { ...process.env, HERALD_URL: url, HERALD_TOKEN: editor.token, NO_COLOR: '1' },
      timeout: 60_000,
    });
    const lines = stdout.trim().split('\n');
    expect(lines).toEqual([
      'last campaign: June newsletter: 3 sent, 0 delivered (0 %), 3 pending',
      'awaiting a receipt: 3 (447700900000, 447700900001, 447700900002)',
      expect.stringMatching(/^draft created: Autumn offer \(draft\), to send at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(Herald's time zone\)$/),
      'newest campaigns: Autumn offer (draft) | June newsletter (2 in all)',
      'asked again with its ETag: 304',
      'refused: expiry_date, included_contact_groups, name, scheduled_send_date',
    ]);

    // What it made is in the team: a draft (never started) to the two numbers, read as E.164.
    const campaigns = (await t.request('GET', '/api/2.0/campaigns?sort=-created_at', { token: editor.token })).json().data;
    expect(campaigns[0]).toMatchObject({ name: 'Autumn offer (draft)', is_draft: true, status: 0 });
    const group = campaigns[0].included_contact_groups[0];
    const contacts = (await t.request('GET', `/api/2.0/contact-groups/${group}/contacts`, { token: editor.token })).json().data;
    expect(contacts.map((contact: { phone_number: string }) => contact.phone_number)).toEqual(['447700900123', '447700900456']);
  });
});
