/**
 * The calendar's range filter of `GET /campaigns/` (issue 35, point 5): `scheduled_from` (at or
 * after) and `scheduled_to` (before), in the service zone, drafts included; a malformed or
 * impossible time is a 422 naming the field.
 *
 * Seen red: with the two conditions left out of the repository's list, the range answered all four
 * campaigns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const clock = createTestClock('2026-06-01T12:00:00Z');
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
const call = (method: 'GET' | 'POST', url: string, body?: unknown, token = owner.token) => t.request(method, `/api/2.0${url}`, { token, body });

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
  stranger = await t.user();
  const template = (await call('POST', '/templates/', { name: 'Hi', body: 'Hello', sender: 'Acme' })).json().data.uuid;
  const group = (await call('POST', '/contact-groups/', { name: 'All' })).json().data.uuid;
  for (const [name, send, draft] of [
    ['May', '2026-05-31 23:59:59', false],
    ['June first', '2026-06-01 00:00:00', false],
    ['June draft', '2026-06-15 09:00:00', true],
    ['July', '2026-07-01 00:00:00', false],
  ] as const) {
    const created = await call('POST', '/campaigns/', {
      name,
      sender: 'Acme',
      template_uuid: template,
      included_contact_groups: [group],
      scheduled_send_date: send,
      expiry_date: '2026-08-01 00:00:00',
      is_draft: draft,
    });
    expect(created.statusCode, created.body).toBe(201);
  }
});
afterAll(() => t.close());

describe('GET /campaigns/ by scheduled send date', () => {
  it('lists the campaigns scheduled in [scheduled_from, scheduled_to), drafts included', async () => {
    const response = await call('GET', '/campaigns/?scheduled_from=2026-06-01%2000:00:00&scheduled_to=2026-07-01%2000:00:00&sort=scheduled_send_date');
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((c: { name: string }) => c.name)).toEqual(['June first', 'June draft']);
    expect(response.json().meta.total).toBe(2);
    expect((await call('GET', '/campaigns/?scheduled_from=2026-06-01T00:00:00Z', undefined, stranger.token)).json().data).toEqual([]);
  });

  it('refuses a malformed or impossible time with a 422 naming the field', async () => {
    const malformed = await call('GET', '/campaigns/?scheduled_from=June');
    expect(malformed.statusCode).toBe(422);
    expect(Object.keys(malformed.json().error.errors)).toEqual(['scheduled_from']);
    const impossible = await call('GET', '/campaigns/?scheduled_to=2026-02-30%2000:00:00');
    expect(impossible.statusCode).toBe(422);
    expect(Object.keys(impossible.json().error.errors)).toEqual(['scheduled_to']);
  });
});
