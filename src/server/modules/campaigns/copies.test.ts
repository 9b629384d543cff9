/**
 * Campaigns made from others (issue 35, point 5): `POST /campaigns/{uuid}/duplicate` and
 * `POST /campaigns/{uuid}/resend-unreached`, over the API, with the engine on the test clock and
 * the recipients of the new draft counted at the gateway when it is sent.
 *
 * Seen red: with the never-written audience left out of `unreachedGroup` (copies.repository.ts),
 * the draft's group held only the two messages the stop made unsent (3 and 4), not the five
 * recipients the stop kept from being written (6–10); with the stop no longer keeping where the
 * audience had got to (`stopped_audience_after` in lifecycle.ts), the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulatorGateway } from '../../gateways/sms/simulator';
import { createEngine } from '../../engine/engine';
import { createEngineStore } from '../../engine/store/postgres-store';
import { countingGateway, GatewayLedger } from '../../testing/counting-gateway';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';
import { formatTimestamp } from '../../lib/time';

const clock = createTestClock('2026-06-01T12:00:00Z');
let t: TestApp;
let owner: TestUser;
let viewerToken: string;
let stranger: TestUser;
let template: string;
let group: string;
let optouts: string;
/** Ten numbers in order; the fifth is opted out before the start, the fourth once it is written. */
const NUMBERS = Array.from({ length: 10 }, (_, i) => `4477009007${String(i + 1).padStart(2, '0')}`);

const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, token = owner.token) => t.request(method, `/api/2.0${url}`, { token, body });
const at = (ms: number) => formatTimestamp(new Date(clock.now().getTime() + ms), 'Europe/London');

function engineWith(ledger: GatewayLedger, rateLimitPerSecond: number) {
  return createEngine({
    // The first four recipients are written at the start; the rest only as the sending gets near them.
    store: createEngineStore(t.database.db, { audience: { first: 4, chunk: 2, ahead: 1 } }),
    gateway: countingGateway(createSimulatorGateway({ latencyMs: 0, failureRate: 0 }), { ledger }),
    clock,
    options: { tickMs: 1000, batchSize: 2, rateLimitPerSecond, leaseMs: 30_000, lanes: 1 },
    urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
  });
}

async function create(overrides: Record<string, unknown> = {}) {
  const response = await call('POST', '/campaigns/', {
    name: 'Spring sale',
    sender: 'Acme',
    included_contact_groups: [group],
    template_uuid: template,
    scheduled_send_date: at(1000),
    expiry_date: at(86_400_000),
    ...overrides,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

const auditOf = async (uuid: string) =>
  (await t.database.pool.query(`SELECT action FROM audit_events WHERE resource_uuid = $1 ORDER BY id`, [uuid])).rows as Array<{ action: string }>;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user({ team: 'Shop' });
  const member = await t.user();
  await t.services.users.addToTeam(member.email, 'Shop', 'viewer');
  const teamId = (await t.services.teamsRepository.findByUuid(owner.teamUuid))!.id;
  const userId = (await t.services.usersRepository.findByEmail(member.email))!.id;
  viewerToken = (await t.services.tokens.issue(userId, 'personal', 'viewer', { teamId })).token;
  stranger = await t.user({ team: 'Elsewhere' });
  template = (await call('POST', '/templates/', { name: 'Hi', body: 'Hi {{first_name}}', sender: 'Acme' })).json().data.uuid;
  group = (await call('POST', '/contact-groups/', { name: 'Ten' })).json().data.uuid;
  await call('PUT', `/contact-groups/${group}/add-contacts`, {
    contacts: NUMBERS.map((n, i) => ({ phone_number: `+${n}`, custom_fields: { first_name: `N${i + 1}` } })),
  });
  const groups = (await call('GET', '/contact-groups/?per_page=100')).json().data as Array<{ uuid: string; name: string }>;
  optouts = groups.find((g) => g.name === 'default_optouts')!.uuid;
});
afterAll(() => t.close());

describe('duplicate', () => {
  it('makes a draft copy with the same settings and none of the state, recorded in the audit log', async () => {
    const source = await create({ local_time: true });
    const response = await call('POST', `/campaigns/${source.uuid}/duplicate`);
    expect(response.statusCode, response.body).toBe(201);
    const copy = response.json().data;
    expect(copy.uuid).not.toBe(source.uuid);
    expect(copy).toMatchObject({
      name: 'Spring sale (copy)',
      sender: 'Acme',
      template_uuid: template,
      included_contact_groups: [group],
      excluded_contact_groups: [],
      scheduled_send_date: source.scheduled_send_date,
      expiry_date: source.expiry_date,
      local_time: true,
      is_draft: true,
      status: 0,
      started_sending_at: '',
      stopped_at: '',
      approval: { status: 'not_required' },
    });
    expect(await auditOf(copy.uuid)).toEqual([{ action: 'duplicateCampaign' }]);
    expect((await call('GET', `/campaigns/${copy.uuid}`)).statusCode).toBe(200);
  });

  it("is an editor's: 403 for a viewer, 404 for another team's campaign", async () => {
    const source = await create();
    expect((await call('POST', `/campaigns/${source.uuid}/duplicate`, undefined, viewerToken)).statusCode).toBe(403);
    expect((await call('POST', `/campaigns/${source.uuid}/duplicate`, undefined, stranger.token)).statusCode).toBe(404);
    expect((await call('POST', `/campaigns/${source.uuid}/resend-unreached`, undefined, stranger.token)).statusCode).toBe(404);
  });
});

describe('send to those not reached', () => {
  it('is refused (409) for a campaign neither stopped nor expired', async () => {
    const source = await create();
    const response = await call('POST', `/campaigns/${source.uuid}/resend-unreached`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/stopped or expired/);
  });

  it("makes a draft to exactly a stopped campaign's unreached recipients, with their fields: counted at the gateway when it is sent", async () => {
    // The campaigns of the tests above send nothing here (they would reach the same numbers).
    await t.database.pool.query(`UPDATE campaigns SET is_draft = true WHERE status = 0`);
    // The fifth number is opted out before the start: never written, never to be reached.
    await call('PUT', `/contact-groups/${optouts}/add-contacts`, { contacts: [{ phone_number: `+${NUMBERS[4]}` }] });
    const source = await create({ name: 'Flash sale' });
    const first = new GatewayLedger();
    const engine = engineWith(first, 2);
    clock.advance(1000);
    // Starts: writes 1–4, sends 1 and 2 (two a second). Then the fourth opts out, and the campaign is stopped.
    await engine.tick();
    expect([...first.byNumber.keys()]).toEqual(NUMBERS.slice(0, 2));
    await call('PUT', `/contact-groups/${optouts}/add-contacts`, { contacts: [{ phone_number: `+${NUMBERS[3]}` }] });
    expect((await call('PUT', `/campaigns/${source.uuid}/stop`)).statusCode).toBe(200);
    clock.advance(1000);
    await engine.tick();
    await engine.tick();
    expect([...first.byNumber.keys()]).toEqual(NUMBERS.slice(0, 2));
    expect((await call('GET', `/campaigns/${source.uuid}`)).json().data.status).toBe(2);

    const response = await call('POST', `/campaigns/${source.uuid}/resend-unreached`);
    expect(response.statusCode, response.body).toBe(201);
    const draft = response.json().data;
    expect(draft).toMatchObject({ name: 'Flash sale (not reached)', is_draft: true, status: 0, template_uuid: template, excluded_contact_groups: [] });
    expect(draft.included_contact_groups).toHaveLength(1);
    const unreached = draft.included_contact_groups[0];
    expect(unreached).not.toBe(group);
    // 3 and 4 were unsent by the stop; 6–10 never written; 5 opted out (4 too, since: left out at the draft's start).
    const expected = [NUMBERS[2], NUMBERS[3], ...NUMBERS.slice(5)];
    const members = (await call('GET', `/contact-groups/${unreached}/contacts?per_page=100`)).json().data as Array<{ phone_number: string }>;
    expect(members.map((m) => m.phone_number.replace(/^\+/, '')).sort()).toEqual(expected);
    expect(await auditOf(unreached)).toEqual([{ action: 'resendUnreachedCampaign' }]);
    expect(await auditOf(draft.uuid)).toEqual([{ action: 'resendUnreachedCampaign' }]);

    // Scheduled now and sent: the gateway gets exactly the unreached (less the one opted out since), each once, with their own fields.
    const scheduled = await call('PUT', `/campaigns/${draft.uuid}`, {
      name: draft.name,
      sender: draft.sender,
      template_uuid: draft.template_uuid,
      included_contact_groups: draft.included_contact_groups,
      excluded_contact_groups: [],
      scheduled_send_date: at(1000),
      expiry_date: at(86_400_000),
      is_draft: false,
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const second = new GatewayLedger();
    const resend = engineWith(second, 100);
    clock.advance(1000);
    for (let i = 0; i < 6; i++) {
      clock.advance(1000);
      await resend.tick();
    }
    const reached = expected.filter((n) => n !== NUMBERS[3]);
    expect([...second.byNumber.keys()].sort()).toEqual(reached);
    expect(second.duplicates()).toEqual([]);
    expect(second.bodiesByNumber.get(NUMBERS[2]!)).toEqual(['Hi N3']);
    expect(second.bodiesByNumber.get(NUMBERS[9]!)).toEqual(['Hi N10']);
  });
});
