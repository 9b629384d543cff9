import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { loggedRequest, requestIdOf } from './request-log';

describe('request log lines', () => {
  it('blank a signed link’s signature and keep the rest of the URL', () => {
    const url = '/api/2.0/report-downloads/6f1c2a9e-1c1e-4c7e-9a55-0d5b8e1f2a3b?expires=1780000000&signature=AbC-123_xyz';
    expect(loggedRequest({ id: 'req-1', method: 'GET', url, host: 'herald.test', ip: '127.0.0.1' })).toEqual({
      id: 'req-1',
      method: 'GET',
      url: '/api/2.0/report-downloads/6f1c2a9e-1c1e-4c7e-9a55-0d5b8e1f2a3b?expires=1780000000&signature=[redacted]',
      host: 'herald.test',
      remoteAddress: '127.0.0.1',
    });
    expect(loggedRequest({ id: 'r', method: 'GET', url: '/x?Signature=s&page=2' }).url).toBe('/x?Signature=[redacted]&page=2');
  });

  it("blanks an invitation link's secret, not a team invitation's uuid", () => {
    expect(loggedRequest({ id: 'r', method: 'GET', url: '/api/2.0/invitations/s3cr3t-value_x' }).url).toBe('/api/2.0/invitations/[redacted]');
    const uuid = '/api/2.0/team/invitations/6f1c2a9e-1c1e-4c7e-9a55-0d5b8e1f2a3b';
    expect(loggedRequest({ id: 'r', method: 'DELETE', url: uuid }).url).toBe(uuid);
  });

  it('leave other URLs as they are', () => {
    expect(loggedRequest({ id: 'r', method: 'POST', url: '/api/2.0/templates/?page=2' }).url).toBe('/api/2.0/templates/?page=2');
  });
});

describe('request ids', () => {
  const withId = (value?: string) => ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as unknown as IncomingMessage;

  it('takes a client’s X-Request-Id of letters, digits and ._:- up to 128 characters', () => {
    for (const id of ['abc', 'ci-run.42:a_b', 'x'.repeat(128), '0f8fad5b-d9cb-469f-a165-70867728950e']) expect(requestIdOf(withId(id))).toBe(id);
  });

  it('makes a new one for none, an empty one, a longer one, or one with anything else in it', () => {
    for (const id of [undefined, '', 'x'.repeat(129), 'two words', 'tab\there', 'quote"d', 'ünïcode', '{"json":1}']) {
      const made = requestIdOf(withId(id));
      expect(made).not.toBe(id);
      expect(made).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});
