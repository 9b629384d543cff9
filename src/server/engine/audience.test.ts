/**
 * A large campaign's audience is written in chunks beside the sending, so its first message leaves
 * at the send time (issue #16, scale). Small sizes here (3 first, 4 a chunk, at most 5 waiting) stand
 * for 5,000 / 25,000 / 100,000. What the carrier received is counted at the gateway's edge.
 *
 * Shown able to fail: with finishDone's `audience_after IS NULL` removed, "never gets ahead…"
 * went red (finished with 7 of 17 written); with the chunk's sequences numbered from 1
 * instead of on from message_count, the chunk's insert failed on the (campaign, sequence) key and the
 * send never finished; with unsendLate not called, "a chunk written after the expiry" went red (its
 * messages stayed queued and the campaign never finished).
 * "A number in two groups" (issue 32): with `recipientsOf` (db/audience.ts) back to the latest contact
 * row, the carrier received "Hi Isla" for Alice and "Hi there" for Bob and Cy, and the review counted
 * 2 missing names.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import { countingGateway, GatewayLedger } from '../testing/counting-gateway';
import { campaignDueNow as dueNow, liveClock } from '../testing/engine-campaigns';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';
import { createEngine } from './engine';
import { createEngineStore } from './store/postgres-store';

const clock = liveClock('2026-06-01T09:00:00Z');
const SIZES = { first: 3, chunk: 4, ahead: 5 };
const RECIPIENTS = 17;
/** How long a whole send may take (a tick at a time, batches of 2). */
const WAIT = { timeout: 20_000, interval: 10 };
let t: TestApp;
let owner: TestUser;
let template: string;
let group: string;
let optedOutLater: string;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
  template = (await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { name: 'Hi', body: 'Hi {{first_name}}', sender: 'Acme' } })).json()
    .data.uuid;
  group = (await t.request('POST', '/api/2.0/contact-groups/', { token: owner.token, body: { name: 'Seventeen' } })).json().data.uuid;
  // Added out of order: messages are numbered by phone number whatever the order of the contacts.
  const contacts = Array.from({ length: RECIPIENTS }, (_, i) => ({
    phone_number: `0770090${String(1000 + ((i * 7) % RECIPIENTS))}`,
    custom_fields: { first_name: `N${i}` },
  }));
  await t.request('PUT', `/api/2.0/contact-groups/${group}/add-contacts`, { token: owner.token, body: { contacts } });
  optedOutLater = '447700901015';
});
afterAll(() => t.close());
afterEach(() => t.database.pool.query(`UPDATE campaigns SET status = 2 WHERE status = 1`).then(() => undefined));

const campaignDueNow = (expiresInMs?: number) => dueNow(t, { token: owner.token, clock, name: 'Audience', group, template, expiresInMs });

const engineWith = (ledger: GatewayLedger) =>
  createEngine({
    store: createEngineStore(t.database.db, { audience: SIZES }),
    gateway: countingGateway(createSimulatorGateway({ latencyMs: 0, failureRate: 0 }), { ledger }),
    clock,
    options: { tickMs: 100, batchSize: 2, rateLimitPerSecond: 10_000, leaseMs: 30_000, lanes: 1 },
    urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
  });

const rows = async (id: number) =>
  (await t.database.pool.query(`SELECT sequence, phone_number, status, reason, unsent_sequence FROM messages WHERE campaign_id = $1 ORDER BY sequence`, [id]))
    .rows as Array<{
    sequence: number;
    phone_number: string;
    status: string;
    reason: string | null;
    unsent_sequence: number | null;
  }>;
const campaignRow = async (id: number) => (await t.database.pool.query(`SELECT * FROM campaigns WHERE id = $1`, [id])).rows[0];

describe('an audience written in chunks', { timeout: 60_000 }, () => {
  it('starts with the first few, writes the rest beside the sending, and sends every recipient once, numbered by phone number', async () => {
    const { id } = await campaignDueNow();
    const ledger = new GatewayLedger();
    const store = createEngineStore(t.database.db, { audience: SIZES });
    await store.startDue(clock.now());
    expect((await rows(id)).length).toBe(SIZES.first);
    expect((await campaignRow(id)).audience_after).toBe('447700901002');

    const engine = engineWith(ledger);
    await vi.waitFor(async () => {
      await engine.tick();
      expect((await campaignRow(id)).status).toBe(2);
    }, WAIT);
    await engine.flushReceipts();
    const sent = await rows(id);
    expect(sent.map((m) => m.sequence)).toEqual(Array.from({ length: RECIPIENTS }, (_, i) => i + 1));
    expect(sent.map((m) => m.phone_number)).toEqual(Array.from({ length: RECIPIENTS }, (_, i) => `44770090${1000 + i}`));
    expect(sent.every((m) => m.status === 'delivered')).toBe(true);
    expect([ledger.total, ledger.duplicates()]).toEqual([RECIPIENTS, []]);
    const counters = await campaignRow(id);
    expect([counters.message_count, counters.delivered_count, counters.audience_after]).toEqual([RECIPIENTS, RECIPIENTS, null]);
  });

  it('never gets ahead of the sending by more than its margin, and the summary counts every recipient meanwhile', async () => {
    const { uuid, id } = await campaignDueNow();
    const store = createEngineStore(t.database.db, { audience: SIZES });
    await store.startDue(clock.now());
    await store.extendAudiences(clock.now());
    // 3 written, fewer than 5 waiting: one chunk of 4 more; then 7 wait, which is enough.
    expect((await campaignRow(id)).message_count).toBe(7);
    // The summary counts every recipient expected, not only those written.
    // (Counted beside the ticks, so it comes a moment later.)
    await vi.waitFor(
      async () =>
        expect((await t.request('GET', `/api/2.0/campaigns/${uuid}/summary`, { token: owner.token })).json().data).toMatchObject({
          recipients: RECIPIENTS,
          queued: RECIPIENTS,
        }),
      WAIT,
    );
    await store.extendAudiences(clock.now());
    expect((await campaignRow(id)).message_count).toBe(7);
    // Every message written so far claimed and settled: not finished while recipients are unwritten.
    await t.database.pool.query(`UPDATE campaigns SET next_sequence = message_count + 1 WHERE id = $1`, [id]);
    expect(await store.finishDone(clock.now())).not.toContain(id);
    expect((await campaignRow(id)).status).toBe(1);
  });

  it('leaves out a number that opts out before its chunk is written', async () => {
    const { id } = await campaignDueNow();
    const store = createEngineStore(t.database.db, { audience: SIZES });
    await store.startDue(clock.now());
    await t.services.inbound.receive({ from: `+${optedOutLater}`, body: 'STOP', source: 'gateway', teamId: null });
    const ledger = new GatewayLedger();
    const engine = engineWith(ledger);
    await vi.waitFor(async () => {
      await engine.tick();
      expect((await campaignRow(id)).status).toBe(2);
    }, WAIT);
    const written = await rows(id);
    expect(written.map((m) => m.phone_number)).not.toContain(optedOutLater);
    expect(written.map((m) => m.sequence)).toEqual(Array.from({ length: RECIPIENTS - 1 }, (_, i) => i + 1));
    // Every other recipient once; the number that opted out only the STOP's confirmation.
    expect(ledger.total).toBe(RECIPIENTS);
    expect(ledger.byNumber.get(optedOutLater)).toBe(1);
    await t.database.pool.query(
      `DELETE FROM contacts WHERE phone_number = $1 AND contact_group_id IN (SELECT id FROM contact_groups WHERE system_role = 'optouts')`,
      [optedOutLater],
    );
  });

  it('a chunk written after the expiry is unsent (pending), numbered on, and the campaign finishes', async () => {
    const { id } = await campaignDueNow(60_000);
    const store = createEngineStore(t.database.db, { audience: SIZES });
    await store.startDue(clock.now());
    clock.jump(60_000);
    await store.expire(clock.now()); // the first 3: unsent, numbered 1…3
    while ((await store.extendAudiences(clock.now())) > 0);
    await store.finishDone(clock.now());

    const written = await rows(id);
    expect(written.length).toBe(RECIPIENTS);
    expect(written.map((m) => [m.status, m.reason])).toEqual(Array(RECIPIENTS).fill(['unsent', 'pending']));
    expect(written.map((m) => m.unsent_sequence)).toEqual(Array.from({ length: RECIPIENTS }, (_, i) => i + 1));
    const counters = await campaignRow(id);
    expect([counters.status, counters.message_count, counters.unsent_count, counters.next_sequence]).toEqual([2, RECIPIENTS, RECIPIENTS, RECIPIENTS + 1]);
  });
});

/**
 * A number in two groups (issue 32, point 1): the customers' group has Alice, a newsletter list
 * imported later has the same number with another name or none. Each recipient's fields are merged
 * over its included groups, the first listed winning a disagreement, in the messages the carrier
 * receives (written in chunks here), the review, the template preview and a test send alike.
 */
describe('a number in two groups', { timeout: 60_000 }, () => {
  const customers = ['07700902001', '07700902002', '07700902003', '07700902004', '07700902005', '07700902006'];
  const names = ['Alice', 'Bob', 'Cy', 'Di', 'Ed', 'Flo'];
  const e164 = (national: string) => `44${national.slice(1)}`;
  let hiTemplate: string;
  let groupA: string;
  let groupB: string;
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => t.request(method, `/api/2.0${url}`, { token: owner.token, body });
  const at = (ms: number) =>
    new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/London', dateStyle: 'short', timeStyle: 'medium' }).format(new Date(clock.now().getTime() + ms));
  const campaignBody = (included: string[]) => ({
    name: 'Two groups',
    sender: 'Acme',
    scheduled_send_date: at(2000),
    expiry_date: at(3_600_000),
    included_contact_groups: included,
    excluded_contact_groups: [],
    template_uuid: hiTemplate,
  });
  /** Sends a campaign to `included` through the engine; what the carrier received, by number. */
  const send = async (included: string[]) => {
    const created = await call('POST', '/campaigns/', campaignBody(included));
    expect(created.statusCode, created.body).toBe(201);
    clock.jump(2000);
    const id = Number((await t.database.pool.query(`SELECT id FROM campaigns WHERE uuid = $1`, [created.json().data.uuid])).rows[0].id);
    const ledger = new GatewayLedger();
    const engine = engineWith(ledger);
    await vi.waitFor(async () => {
      await engine.tick();
      expect((await campaignRow(id)).status).toBe(2);
    }, WAIT);
    return { uuid: created.json().data.uuid as string, ledger };
  };

  beforeAll(async () => {
    hiTemplate = (await call('POST', '/templates/', { name: 'Hi there', body: 'Hi {{first_name|there}}', sender: 'Acme' })).json().data.uuid;
    groupA = (await call('POST', '/contact-groups/', { name: 'Customers' })).json().data.uuid;
    groupB = (await call('POST', '/contact-groups/', { name: 'Newsletter' })).json().data.uuid;
    const added = await call('PUT', `/contact-groups/${groupA}/add-contacts`, {
      contacts: customers.map((phone_number, i) => ({ phone_number, custom_fields: { first_name: names[i] } })),
    });
    expect(added.statusCode).toBe(200);
    clock.jump(1000);
    // Later, the newsletter list: Alice's number under another name, Bob's with an empty cell, a new reader.
    const imported = await t.app.inject({
      method: 'POST',
      url: `/api/2.0/contact-groups/${groupB}/imports`,
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'text/csv' },
      payload: 'phone,first_name\n07700902001,Isla\n07700902002,\n07700902007,Cleo\n',
    });
    expect(imported.json().data).toMatchObject({ status: 'completed', contacts_added: 3 });
    // And Cy's number with an empty value, written through the API, later still.
    clock.jump(1000);
    await call('PUT', `/contact-groups/${groupB}/add-contacts`, { contacts: [{ phone_number: '07700902003', custom_fields: { first_name: '' } }] });
  });

  it('sends each recipient a non-empty name, the first listed group winning a disagreement', async () => {
    const { ledger } = await send([groupA, groupB]);
    const expected = new Map([...customers.map((n, i) => [e164(n), [`Hi ${names[i]}`]] as const), [e164('07700902007'), ['Hi Cleo']]]);
    expect(ledger.bodiesByNumber).toEqual(expected);

    // The newsletter listed first: its Isla wins for Alice's number; its empty values still lose.
    const reversed = await send([groupB, groupA]);
    expect(reversed.ledger.bodiesByNumber.get(e164('07700902001'))).toEqual(['Hi Isla']);
    expect(reversed.ledger.bodiesByNumber.get(e164('07700902002'))).toEqual(['Hi Bob']);
    expect(reversed.ledger.bodiesByNumber.get(e164('07700902003'))).toEqual(['Hi Cy']);
    expect(reversed.ledger.total).toBe(7);
  });

  it('reviews, previews and test-sends with the same merged fields, and counts the disagreement', async () => {
    const preview = (await call('POST', '/campaigns/preview', campaignBody([groupA, groupB]))).json().data;
    expect(preview.recipients).toEqual({ included: 10, duplicates: 3, excluded: 0, opted_out: 0, total: 7, conflicting: 1 });
    expect(preview.coverage).toEqual([{ field: 'first_name', fallback: true, missing: 0, groups_without: [], conflicting: 1, blocking: false }]);

    // A saved campaign reads its groups in the order given.
    const created = (
      await call('POST', '/campaigns/', { ...campaignBody([groupB, groupA]), scheduled_send_date: at(86_400_000), expiry_date: at(2 * 86_400_000) })
    ).json().data;
    const review = (await call('GET', `/campaigns/${created.uuid}/review`)).json().data;
    expect([review.recipients.conflicting, review.coverage[0].missing, review.coverage[0].conflicting]).toEqual([1, 0, 1]);

    // The template preview: the first recipient of the latest campaign (this one, the newsletter first), and a number of the team.
    const first = (await call('GET', `/templates/${hiTemplate}/preview`)).json().data;
    expect([first.phone_number, first.body]).toEqual([e164('07700902001'), 'Hi Isla']);
    const bob = await call('GET', `/templates/${hiTemplate}/preview?phone_number=07700902002`);
    expect(bob.json().data?.body, bob.body).toBe('Hi Bob');

    // A test send personalised as Bob's number: the carrier receives Bob's name, not the newsletter's gap.
    const tests = await call('POST', `/campaigns/${created.uuid}/test-sends`, { phone_numbers: ['07700902999'], contact_phone_number: '07700902002' });
    expect(tests.statusCode, tests.body).toBe(201);
    const ledger = new GatewayLedger();
    const engine = engineWith(ledger);
    await vi.waitFor(async () => {
      await engine.tick();
      expect(ledger.bodiesByNumber.get(e164('07700902999'))).toEqual(['Hi Bob']);
    }, WAIT);
  });
});
