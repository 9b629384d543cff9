/**
 * The review's per-connection estimate (issue 34, point 2): each recipient's country picks the
 * first rule covering it, the rule's first enabled connection is where the message should go, at
 * that connection's price for the country (else its `*`, else the team's); no rule is `no_route`.
 *
 * Seen red: with the disabled connections kept in `routable` (route-estimate.ts), the United
 * Kingdom's messages went to the disabled connection; with the connection's own `*` price skipped,
 * Ireland's cost was the team's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../testing/test-app';

let t: TestApp;
const API = '/api/2.0';
const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => t.request(method, `${API}${url}`, { token: user.token, body });

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
});
afterAll(() => t.close());

/** A team with a price, an audience (3 GB, 2 IE, 1 FR, 2 US) and a one-part template; answers the body of a preview. */
async function team(prices: { team: number | null }) {
  const user = await t.user();
  await call(user, 'PUT', '/team/settings', { price_per_segment: prices.team, currency: 'EUR' });
  const group = (await call(user, 'POST', '/contact-groups/', { name: 'Everyone' })).json().data.uuid;
  const numbers = ['+447700900001', '+447700900002', '+447700900003', '+353851234501', '+353851234502', '+33612345601', '+12025550101', '+12025550102'];
  const added = await call(user, 'PUT', `/contact-groups/${group}/add-contacts`, { contacts: numbers.map((phone_number) => ({ phone_number })) });
  expect(added.statusCode, added.body).toBe(200);
  const template = (await call(user, 'POST', '/templates/', { name: 'Short', body: 'Hello', sender: 'Acme' })).json().data.uuid;
  const body = {
    name: 'Spring',
    sender: 'Acme',
    scheduled_send_date: '2099-06-01 10:00:00',
    expiry_date: '2099-06-02 10:00:00',
    included_contact_groups: [group],
    template_uuid: template,
  };
  const connection = async (name: string, extra: Record<string, unknown> = {}) => {
    const response = await call(user, 'POST', '/sms-connections/', { name, provider: 'simulator', ...extra });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.uuid as string;
  };
  const review = async () => {
    const response = await call(user, 'POST', '/campaigns/preview', body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  return { user, connection, review };
}

describe('the review per connection', () => {
  it('is left out for a team without connections (it sends through the installation’s gateway)', async () => {
    const { review } = await team({ team: 0.05 });
    const data = await review();
    expect(data.recipients.total).toBe(8);
    expect(data).not.toHaveProperty('routing');
  });

  it('counts each recipient at the first enabled connection of the first rule for its country, priced by country, * or the team', async () => {
    const { user, connection, review } = await team({ team: 0.05 });
    const off = await connection('Off', { enabled: false });
    const uk = await connection('UK', { price_per_segment: { GB: 0.035 } });
    const europe = await connection('Europe', { price_per_segment: { FR: 0.07, '*': 0.06 } });
    const plain = await connection('Plain');
    const routes = [
      { countries: ['GB'], connections: [off, uk, europe] },
      { countries: ['IE', 'FR', 'GB'], connections: [europe] },
      { countries: ['DE'], connections: [off] },
      { countries: ['CA'], connections: [plain] },
    ];
    expect((await call(user, 'PUT', '/sms-routes', { routes })).statusCode).toBe(200);
    expect((await review()).routing).toEqual({
      connections: [
        // Two IE at Europe's * (0.06) and one FR at 0.07.
        { uuid: europe, name: 'Europe', provider: 'simulator', messages: 3, cost: { amount: 0.19, currency: 'EUR' } },
        // Three GB at 0.035 (Off is disabled: the next connection of the rule).
        { uuid: uk, name: 'UK', provider: 'simulator', messages: 3, cost: { amount: 0.105, currency: 'EUR' } },
      ],
      // The two US numbers: no rule covers the United States.
      no_route: 2,
    });

    // A * rule last catches them, at the team's price.
    expect((await call(user, 'PUT', '/sms-routes', { routes: [...routes, { countries: ['*'], connections: [plain] }] })).statusCode).toBe(200);
    expect((await review()).routing.connections).toContainEqual({
      uuid: plain,
      name: 'Plain',
      provider: 'simulator',
      messages: 2,
      cost: { amount: 0.1, currency: 'EUR' },
    });
    expect((await review()).routing.no_route).toBe(0);
  });

  it('sends everything through the first enabled connection when the team has no routes; no price anywhere is a null cost', async () => {
    const { connection, review } = await team({ team: null });
    await connection('Off', { enabled: false });
    const first = await connection('First');
    await connection('Second');
    expect((await review()).routing).toEqual({
      connections: [{ uuid: first, name: 'First', provider: 'simulator', messages: 8, cost: null }],
      no_route: 0,
    });
  });

  it('counts a team whose connections are all disabled as no route', async () => {
    const { connection, review } = await team({ team: 0.05 });
    await connection('Off', { enabled: false });
    expect((await review()).routing).toEqual({ connections: [], no_route: 8 });
  });
});
