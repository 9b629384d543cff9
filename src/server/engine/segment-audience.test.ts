/**
 * A campaign that sends to segments (issue 35, point 1): only segments, no group, is valid; it sends
 * to exactly the numbers that match its included segment, less its excluded segment and the
 * suppression list, counted at the gateway's edge; each with its fields merged over the team's
 * groups. Its recipients are fixed when sending starts: a number that starts matching afterwards
 * does not get it, though the audience is written in chunks (2 at the start, 2 a chunk) after the
 * change.
 *
 * Seen red: with the list evaluated again at each chunk (`fixAudience` called in `extendAudiences`
 * before each chunk), 447700902009, gold only after the start, was sent the message too
 * (5 numbers, not 4).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import { countingGateway, GatewayLedger } from '../testing/counting-gateway';
import { liveClock } from '../testing/engine-campaigns';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';
import { createEngine } from './engine';
import { createEngineStore } from './store/postgres-store';

const clock = liveClock('2026-06-01T09:00:00Z');
const SIZES = { first: 2, chunk: 2, ahead: 2 };
const WAIT = { timeout: 20_000, interval: 10 };
let t: TestApp;
let owner: TestUser;
let template: string;
let all: string;
let other: string;

const api = async (method: 'POST' | 'PUT' | 'GET', path: string, body?: unknown) => {
  const response = await t.request(method, `/api/2.0${path}`, { token: owner.token, body });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json().data;
};
const number = (i: number) => `4477009020${String(i).padStart(2, '0')}`;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
  template = (await api('POST', '/templates/', { name: 'Hi', body: 'Hi {{first_name}}', sender: 'Acme' })).uuid;
  all = (await api('POST', '/contact-groups/', { name: 'All' })).uuid;
  clock.jump(1000);
  other = (await api('POST', '/contact-groups/', { name: 'Other' })).uuid;
  // Ten numbers, the even ones gold; 02 is to be skipped by name; 08 opted out.
  await api('PUT', `/contact-groups/${all}/add-contacts`, {
    contacts: Array.from({ length: 10 }, (_, i) => ({
      phone_number: number(i),
      custom_fields: { first_name: i === 2 ? 'Skip' : `N${i}`, tier: i % 2 === 0 ? 'gold' : 'silver' },
    })),
  });
  // A number only the Other group holds, gold: a segment brings it without its group being included.
  await api('PUT', `/contact-groups/${other}/add-contacts`, {
    contacts: [{ phone_number: '447700902100', custom_fields: { first_name: 'Olga', tier: 'Gold' } }],
  });
  await t.services.inbound.receive({ from: `+${number(8)}`, body: 'STOP', source: 'gateway', teamId: null });
});
afterAll(() => t.close());

const at = (ms: number) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/London', dateStyle: 'short', timeStyle: 'medium' }).format(new Date(clock.now().getTime() + ms));

describe('a campaign to segments', { timeout: 60_000 }, () => {
  it('sends to exactly the numbers matching when it started, in chunks, with their merged fields', async () => {
    const gold = (await api('POST', '/segments/', { name: 'Gold', match: 'all', conditions: [{ type: 'field', field: 'Tier', op: 'equals', value: 'gold' }] }))
      .uuid;
    const skip = (
      await api('POST', '/segments/', { name: 'Skip', match: 'all', conditions: [{ type: 'field', field: 'first_name', op: 'equals', value: 'skip' }] })
    ).uuid;
    const created = await api('POST', '/campaigns/', {
      name: 'Gold only',
      sender: 'Acme',
      scheduled_send_date: at(2000),
      expiry_date: at(3_600_000),
      included_contact_groups: [],
      included_segments: [gold],
      excluded_segments: [skip],
      template_uuid: template,
    });
    expect(created).toMatchObject({ included_contact_groups: [], included_segments: [gold], excluded_segments: [skip] });
    // Before the start, the review counts the audience live: 00, 04, 06 and 100 (02 skipped, 08 opted out).
    expect((await api('GET', `/campaigns/${created.uuid}/review`)).recipients.total).toBe(4);
    clock.jump(2000);
    const id = Number((await t.database.pool.query(`SELECT id FROM campaigns WHERE uuid = $1`, [created.uuid])).rows[0].id);

    const store = createEngineStore(t.database.db, { audience: SIZES });
    await store.startDue(clock.now());
    const fixed = await t.database.pool.query(`SELECT phone_number FROM campaign_audience WHERE campaign_id = $1 ORDER BY 1`, [id]);
    expect(fixed.rows.map((row) => row.phone_number)).toEqual([number(0), number(4), number(6), '447700902100']);

    // 09 turns gold after the start, and would sort into a later chunk: it must not get the message.
    await api('PUT', `/contact-groups/${all}/add-contacts`, { contacts: [{ phone_number: number(9), custom_fields: { first_name: 'N9', tier: 'gold' } }] });
    const ledger = new GatewayLedger();
    const engine = createEngine({
      store,
      gateway: countingGateway(createSimulatorGateway({ latencyMs: 0, failureRate: 0 }), { ledger }),
      clock,
      options: { tickMs: 100, batchSize: 2, rateLimitPerSecond: 10_000, leaseMs: 30_000, lanes: 1 },
      urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
    });
    await vi.waitFor(async () => {
      await engine.tick();
      expect((await t.database.pool.query(`SELECT status FROM campaigns WHERE id = $1`, [id])).rows[0].status).toBe(2);
    }, WAIT);
    await engine.flushReceipts();
    // The campaign's messages (08's STOP was answered through the same gateway).
    const campaignBodies = [...ledger.bodiesByNumber]
      .map(([to, bodies]) => [to, bodies.filter((body) => body.startsWith('Hi '))] as const)
      .filter(([, bodies]) => bodies.length > 0);
    expect(Object.fromEntries(campaignBodies)).toEqual({
      [number(0)]: ['Hi N0'],
      [number(4)]: ['Hi N4'],
      [number(6)]: ['Hi N6'],
      '447700902100': ['Hi Olga'],
    });
    expect([campaignBodies.length, ledger.duplicates()]).toEqual([4, []]);
    // After the start, the review shows the fixed list's count, whatever the segment matches now (6 with 09).
    expect((await api('GET', `/campaigns/${created.uuid}/review`)).recipients.total).toBe(4);
    expect((await api('GET', `/segments/${gold}/count`)).count).toBe(7);
  });
});
