import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAssets } from '../../../scripts/compress-assets.ts';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
let dist: string;
const INDEX = '<!doctype html><title>Herald</title><div id="root"></div>';
const BIG = Array.from({ length: 400 }, (_, i) => `export const value${i} = "Herald ${i}";`).join('\n');

beforeAll(async () => {
  dist = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-dist-'));
  await fs.mkdir(path.join(dist, 'assets'));
  await fs.writeFile(path.join(dist, 'index.html'), INDEX);
  await fs.writeFile(path.join(dist, 'assets', 'main-abc123.js'), 'console.log(1)');
  await fs.writeFile(path.join(dist, 'assets', 'big-abc123.js'), BIG);
  await compressAssets(dist);
  t = await createTestApp({}, { dashboardDir: dist });
});
afterAll(async () => {
  await t.close();
  await fs.rm(dist, { recursive: true, force: true });
});

const get = (url: string, accept = '*/*') => t.app.inject({ method: 'GET', url, headers: { accept } });

describe('the dashboard', () => {
  it('is served at / to a browser and to curl alike', async () => {
    for (const accept of ['text/html,application/xhtml+xml', '*/*']) {
      const response = await get('/', accept);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toBe(INDEX);
    }
  });

  it('answers a deep link with the app, so a reload keeps the page', async () => {
    const response = await get('/senders/5b0c5a8e-3f7e-4c1e-9d55-0b5e0f1a2b3c/edit?page=2', 'text/html');
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('caches hashed assets for good', async () => {
    const response = await get('/assets/main-abc123.js');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the build-time brotli or gzip copy of an asset to a browser that takes it, and the plain file otherwise', async () => {
    const asked = (encoding: string) => t.app.inject({ method: 'GET', url: '/assets/big-abc123.js', headers: { 'accept-encoding': encoding } });
    const br = await asked('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(BIG.length / 4);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(BIG);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await asked('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(BIG);
    const plain = await asked('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG);
    // Too small to gain: no copies, the file itself.
    expect((await t.app.inject({ method: 'GET', url: '/assets/main-abc123.js', headers: { 'accept-encoding': 'br' } })).body).toBe('console.log(1)');
  });

  it('keeps API and missing files as JSON 404s', async () => {
    const api = await get('/api/2.0/nope', 'text/html');
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe(404);
    const missing = await get('/assets/missing.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe(404);
  });
});
