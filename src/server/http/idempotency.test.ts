import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import { createEngine } from '../engine/engine';
import { createEngineStore } from '../engine/store/postgres-store';
import { countingGateway, GatewayLedger } from '../testing/counting-gateway';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../testing/test-app';
import { IDEMPOTENCY_LOCK_MS, IDEMPOTENCY_TTL_MS } from './idempotency';

// Idempotency-Key on POSTs: a retried request makes nothing twice. What is counted is what the world
// gets: messages handed to the carrier for a send-test sent twice, campaigns, groups and imports in
// the database; and what a retry answers.
//
// Seen red: without registerIdempotency (app.ts) every "once" count doubled (2 submissions at the
// carrier, 2 campaigns, 2 groups, 2 imports); with the fingerprint left out of the claim's check,
// the key reused for another body replayed the first answer instead of 422.

// Europe/London in June: UTC+1; the clock reads 10:00 local.
const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let owner: TestUser;
let colleague: TestUser;
let template: string;
let group: string;

const campaignBody = (name = 'Summer sale') => ({
  name,
  sender: 'Acme',
  scheduled_send_date: '2026-06-02 09:00:00',
  expiry_date: '2026-06-03 09:00:00',
  included_contact_groups: [group],
  excluded_contact_groups: [],
  template_uuid: template,
});
const post = (url: string, body: unknown, key?: string, user = owner, headers: Record<string, string> = {}) =>
  t.request('POST', url, { token: user.token, body, headers: { ...(key === undefined ? {} : { 'idempotency-key': key }), ...headers } });
const count = async (statement: string, values: unknown[] = []) => Number((await t.database.pool.query(statement, values)).rows[0].n);
const campaignsNamed = (name: string) => count(`SELECT count(*) AS n FROM campaigns WHERE name = $1`, [name]);

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
  colleague = await t.user();
  template = (await post('/api/2.0/templates/', { name: 'Sale', body: 'Hi {{first_name|there}}', sender: 'Acme' })).json().data.uuid;
  group = (await post('/api/2.0/contact-groups/', { name: 'Customers' })).json().data.uuid;
  await t.request('PUT', `/api/2.0/contact-groups/${group}/add-contacts`, {
    token: owner.token,
    body: { contacts: [{ phone_number: '07700900201' }, { phone_number: '07700900202' }] },
  });
});
afterAll(() => t.close());

describe('Idempotency-Key', () => {
  it('replays the first answer to a retried campaign create, and makes one campaign', async () => {
    const first = await post('/api/2.0/campaigns/', campaignBody('Retried'), 'create-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await post('/api/2.0/campaigns/', campaignBody('Retried'), 'create-1');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(retry.json()).toEqual(first.json());
    expect(await campaignsNamed('Retried')).toBe(1);
    // Recorded once in the audit trail: the replay changed nothing.
    expect(await count(`SELECT count(*) AS n FROM audit_events WHERE resource_uuid = $1`, [first.json().data.uuid])).toBe(1);
    // Without a key, the same body is a new request.
    expect((await post('/api/2.0/campaigns/', campaignBody('Retried'))).statusCode).toBe(201);
    expect(await campaignsNamed('Retried')).toBe(2);
  });

  it('refuses the same key with another body (422) and makes nothing', async () => {
    expect((await post('/api/2.0/campaigns/', campaignBody('Keyed A'), 'create-2')).statusCode).toBe(201);
    const other = await post('/api/2.0/campaigns/', campaignBody('Keyed B'), 'create-2');
    expect(other.statusCode).toBe(422);
    expect(other.json().error.errors).toEqual({
      'Idempotency-Key': ['This Idempotency-Key was used for another request in the last 24 hours. Use a new key for a new request.'],
    });
    expect(await campaignsNamed('Keyed B')).toBe(0);
    // Key order in the JSON does not make another request.
    const reordered = Object.fromEntries(Object.entries(campaignBody('Keyed A')).reverse());
    expect((await post('/api/2.0/campaigns/', reordered, 'create-2')).headers['idempotent-replayed']).toBe('true');
    expect(await campaignsNamed('Keyed A')).toBe(1);
  });

  it('answers 409 while the first request with the key is still running, then the first answer', async () => {
    // The first create is held inside PostgreSQL for a moment (a trigger sleeps), so the retry comes while it runs.
    await t.database.pool.query(`CREATE FUNCTION slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.8); RETURN NEW; END $$`);
    await t.database.pool.query(`CREATE TRIGGER slow_insert BEFORE INSERT ON campaigns FOR EACH ROW WHEN (NEW.name = 'Slow') EXECUTE FUNCTION slow_insert()`);
    try {
      const first = post('/api/2.0/campaigns/', campaignBody('Slow'), 'create-3');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const during = await post('/api/2.0/campaigns/', campaignBody('Slow'), 'create-3');
      expect(during.statusCode).toBe(409);
      expect(during.json().error.message).toBe(
        'A request with this Idempotency-Key is still being processed. Try again once it has finished to get its answer.',
      );
      expect((await first).statusCode).toBe(201);
      const after = await post('/api/2.0/campaigns/', campaignBody('Slow'), 'create-3');
      expect(after.headers['idempotent-replayed']).toBe('true');
      expect(after.json()).toEqual((await first).json());
      expect(await campaignsNamed('Slow')).toBe(1);
    } finally {
      await t.database.pool.query(`DROP TRIGGER slow_insert ON campaigns; DROP FUNCTION slow_insert()`);
    }
  });

  it('sends a send-test once, however often the request is retried', async () => {
    const body = {
      name: 'Test once',
      sender: 'Acme',
      scheduled_send_date: '2026-06-01 10:00:00',
      expiry_date: '2026-06-01 12:00:00',
      template_uuid: template,
      contact_number: '07700 900299',
    };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await post('/api/2.0/campaigns/send-test', body, 'send-test-1'));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.json().data.uuid)).size).toBe(1);
    // What the carrier receives: the engine sends what is due, through a gateway that counts.
    const ledger = new GatewayLedger();
    const engine = createEngine({
      store: createEngineStore(t.database.db),
      gateway: countingGateway(createSimulatorGateway({ latencyMs: 0, failureRate: 0 }), { ledger }),
      clock,
      options: { tickMs: 1000, batchSize: 10, rateLimitPerSecond: 1000, leaseMs: 30_000 },
      urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
    });
    await engine.tick();
    await engine.tick();
    await engine.stop();
    expect([...ledger.byNumber]).toEqual([['447700900299', 1]]);
  });

  it('makes one group of a retried bulk-contacts and one import of a retried upload', async () => {
    const numbers = { name: 'From the CRM', contacts: ['07700900301', '07700900302'] };
    const first = await post('/api/2.0/contact-groups/bulk-contacts', numbers, 'bulk-1');
    expect(first.statusCode).toBe(201);
    expect((await post('/api/2.0/contact-groups/bulk-contacts', numbers, 'bulk-1')).json()).toEqual(first.json());
    expect(await count(`SELECT count(*) AS n FROM contact_groups WHERE name = 'From the CRM'`)).toBe(1);

    const csv = 'phone_number,first_name\n07700900401,Ada\n07700900402,Alan\n';
    const upload = (key: string) =>
      t.request('POST', `/api/2.0/contact-groups/${group}/imports?file_name=crm.csv`, {
        token: owner.token,
        body: csv,
        headers: { 'content-type': 'text/csv', 'idempotency-key': key },
      });
    const imported = await upload('import-1');
    expect(imported.statusCode).toBe(201);
    const again = await upload('import-1');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(imported.json());
    expect(await count(`SELECT count(*) AS n FROM contact_imports i JOIN contact_groups g ON g.id = i.contact_group_id WHERE g.uuid = $1`, [group])).toBe(1);
  });

  it('keeps each caller’s keys apart, and a key for 24 hours only', async () => {
    const mine = await post('/api/2.0/templates/', { name: 'Mine', body: 'Hi', sender: 'Acme' }, 'shared-key');
    const theirs = await post('/api/2.0/templates/', { name: 'Mine', body: 'Hi', sender: 'Acme' }, 'shared-key', colleague);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().data.uuid).not.toBe(mine.json().data.uuid);
    clock.advance(IDEMPOTENCY_TTL_MS + 1000);
    const later = await post('/api/2.0/templates/', { name: 'Mine later', body: 'Hi', sender: 'Acme' }, 'shared-key');
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
  });

  it('runs a request again once the process that held its key has died without an answer (after the lock)', async () => {
    expect((await post('/api/2.0/campaigns/', campaignBody('Orphaned'), 'orphan')).statusCode).toBe(201);
    // As if its process had died after claiming the key and before storing the answer.
    await t.database.pool.query(`UPDATE idempotency_keys SET response_status = NULL, response_body = NULL, locked_until = $1 WHERE key = 'orphan'`, [
      new Date(clock.now().getTime() + IDEMPOTENCY_LOCK_MS),
    ]);
    expect((await post('/api/2.0/campaigns/', campaignBody('Orphaned'), 'orphan')).statusCode).toBe(409);
    clock.advance(IDEMPOTENCY_LOCK_MS + 1000);
    const rerun = await post('/api/2.0/campaigns/', campaignBody('Orphaned'), 'orphan');
    expect(rerun.statusCode).toBe(201);
    expect(rerun.headers['idempotent-replayed']).toBeUndefined();
    // Another request under that key is still refused while the key is held.
    expect((await post('/api/2.0/campaigns/', campaignBody('Other'), 'orphan')).statusCode).toBe(422);
  });

  it('refuses a key that is not 1–255 printable characters', async () => {
    for (const key of ['', 'two words', 'x'.repeat(256), 'ünï']) {
      const response = await post('/api/2.0/templates/', { name: `Bad key ${key.length}`, body: 'Hi', sender: 'Acme' }, key);
      expect(response.statusCode, JSON.stringify(key)).toBe(422);
      expect(Object.keys(response.json().error.errors)).toEqual(['Idempotency-Key']);
    }
  });

  it('replays over a real socket, header and all', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = t.app.server.address() as AddressInfo;
      const send = () =>
        fetch(`http://127.0.0.1:${port}/api/2.0/campaigns/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', 'Idempotency-Key': 'socket-1' },
          body: JSON.stringify(campaignBody('Over a socket')),
        });
      const first = await send();
      const second = await send();
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await second.json()).toEqual(await first.json());
      expect(await campaignsNamed('Over a socket')).toBe(1);
    } finally {
      await t.app.close();
    }
  });
});
