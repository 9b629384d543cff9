/**
 * ETag and If-None-Match on single-resource reads (issue 23, point 4), over a real socket with
 * Node's fetch, as a client meets them: decided once in http/etags.ts for every GET open to readers
 * whose path ends in the resource's identifier, documented once in http/openapi.ts.
 *
 * Seen red: with `registerEtags(app)` left out of app.ts (no ETag, no 304: four tests). With the 304
 * branch returning the body it still passed: Node's HTTP server never writes a 304's body, so the
 * socket cannot show that mistake.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';
import { noneMatchHolds } from './etags';

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let base: string;
let sender: string;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  owner = await t.user();
  stranger = await t.user();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/2.0`;
  sender = (await call('POST', '/senders', owner, { body: JSON.stringify({ sender: 'Tagged' }) }).then((response) => response.json())).data.uuid;
});
afterAll(() => t.close());

function call(method: string, path: string, user: TestUser, init: { body?: string; headers?: Record<string, string> } = {}) {
  return fetch(`${base}${path}`, {
    method,
    body: init.body,
    headers: { authorization: `Bearer ${user.token}`, accept: 'application/json', 'content-type': 'application/json', ...init.headers },
  });
}

describe('a single resource', () => {
  it('answers a strong ETag of its body, the same for the same body', async () => {
    const first = await call('GET', `/senders/${sender}`, owner);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    await first.json();
    const again = await call('GET', `/senders/${sender}`, owner);
    expect(again.headers.get('etag')).toBe(etag);
    await again.text();
  });

  it('answers 304 with no body to a matching If-None-Match, keeping its headers', async () => {
    const etag = (await call('GET', `/senders/${sender}`, owner)).headers.get('etag')!;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await call('GET', `/senders/${sender}`, owner, { headers: { 'if-none-match': header } });
      expect(response.status, header).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('content-type')).toBeNull();
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
    }
  });

  it('answers the resource again once it changed, with a new tag', async () => {
    const etag = (await call('GET', `/senders/${sender}`, owner)).headers.get('etag')!;
    expect((await call('PUT', `/senders/${sender}`, owner, { body: JSON.stringify({ sender: 'Retagged' }) })).status).toBe(200);
    const response = await call('GET', `/senders/${sender}`, owner, { headers: { 'if-none-match': etag } });
    expect(response.status).toBe(200);
    expect((await response.json()).data.sender).toBe('Retagged');
    expect(response.headers.get('etag')).not.toBe(etag);
  });

  it('tags other single resources alike: a template, a contact group, a contact by number', async () => {
    const template = (await (await call('POST', '/templates', owner, { body: JSON.stringify({ name: 'T', body: 'Hello', sender: 'Herald' }) })).json()).data
      .uuid;
    const group = (await (await call('POST', '/contact-groups', owner, { body: JSON.stringify({ name: 'G' }) })).json()).data.uuid;
    await call('PUT', `/contact-groups/${group}/add-contacts`, owner, { body: JSON.stringify({ contacts: [{ phone_number: '447700900123' }] }) });
    for (const path of [`/templates/${template}`, `/contact-groups/${group}`, '/contacts/447700900123']) {
      const first = await call('GET', path, owner);
      expect(first.status, path).toBe(200);
      await first.text();
      const etag = first.headers.get('etag')!;
      expect(etag, path).toBeTruthy();
      const second = await call('GET', path, owner, { headers: { 'if-none-match': etag } });
      expect(second.status, path).toBe(304);
      expect(await second.text()).toBe('');
    }
  });
});

describe('what carries no ETag', () => {
  it('a list, a failure, and another team asking with the tag', async () => {
    const list = await call('GET', '/senders', owner);
    expect(list.status).toBe(200);
    expect(list.headers.get('etag')).toBeNull();
    await list.text();

    const etag = (await call('GET', `/senders/${sender}`, owner)).headers.get('etag')!;
    const foreign = await call('GET', `/senders/${sender}`, stranger, { headers: { 'if-none-match': etag } });
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('etag')).toBeNull();
    expect(await foreign.json()).toEqual({
      error: { code: 404, http_code: 404, message: 'The requested resource was not found.', request_id: expect.any(String) },
    });
  });

  it('a tag that does not match: the whole answer', async () => {
    const response = await call('GET', `/senders/${sender}`, owner, { headers: { 'if-none-match': '"stale"' } });
    expect(response.status).toBe(200);
    expect((await response.json()).data.uuid).toBe(sender);
  });
});

describe('the document', () => {
  it('documents the ETag, If-None-Match and the 304 on the reads that have them, and only there', async () => {
    const document = await (await fetch(`${base}/openapi.json`)).json();
    const show = document.paths['/api/2.0/senders/{sender_uuid}'].get;
    expect(show.responses[304].description).toContain('Not modified');
    expect(show.responses[200].headers.ETag).toBeDefined();
    expect(show.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'if-none-match' }));
    expect(document.paths['/api/2.0/senders'].get.responses[304]).toBeUndefined();
  });
});

describe('If-None-Match, read as RFC 9110 says', () => {
  it('compares weakly, takes lists and *, and needs a header', () => {
    expect(noneMatchHolds('"a"', '"a"')).toBe(true);
    expect(noneMatchHolds('W/"a"', '"a"')).toBe(true);
    expect(noneMatchHolds(' "b" ,  "a" ', '"a"')).toBe(true);
    expect(noneMatchHolds('*', '"a"')).toBe(true);
    expect(noneMatchHolds('"b"', '"a"')).toBe(false);
    expect(noneMatchHolds('a', '"a"')).toBe(false);
    expect(noneMatchHolds(undefined, '"a"')).toBe(false);
  });
});
