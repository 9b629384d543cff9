/**
 * A campaign whose start fails never holds up the others. The engine starts due campaigns oldest
 * first, one transaction each, before it sends; a start that threw used to end the whole tick, so the
 * same campaign came first again at every tick and no campaign of any team started or sent any more.
 * Now the failing campaign is logged and left for a minute (its transaction rolled back, so it is still
 * due and nothing of it is half-written), and the others start and reach the carrier.
 *
 * The fault is made with a trigger that refuses the first campaign's messages (a stand-in for any
 * error in its start). What the carrier received is counted at the gateway's edge.
 *
 * A failure that says nothing of the campaign (a serialization failure, the database away) still fails
 * the tick, and the campaign is tried again at once.
 *
 * Seen red: with startDue's catch rethrowing the error, every tick threw "start refused" and the
 * carrier received nothing from the second campaign. Its log line names the cause, not the failed
 * statement: `withoutPlans` (db/plans.ts) no longer runs a statement after a failed one, which hid
 * the first error behind "current transaction is aborted". With every failure treated as the
 * campaign's (no `isTransient`), the serialization failure left it for a minute.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import { countingGateway, GatewayLedger } from '../testing/counting-gateway';
import { campaignDueNow, liveClock } from '../testing/engine-campaigns';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';
import { createEngine } from './engine';
import { createEngineStore } from './store/postgres-store';

const clock = liveClock('2026-06-01T09:00:00Z');
let t: TestApp;
let owner: TestUser;
let template: string;
let group: string;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
  template = (await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { name: 'Hi', body: 'Hi there', sender: 'Acme' } })).json().data.uuid;
  group = (await t.request('POST', '/api/2.0/contact-groups/', { token: owner.token, body: { name: 'Three' } })).json().data.uuid;
  const contacts = ['07700901001', '07700901002', '07700901003'].map((phone_number) => ({ phone_number }));
  await t.request('PUT', `/api/2.0/contact-groups/${group}/add-contacts`, { token: owner.token, body: { contacts } });
});
afterAll(async () => {
  await t.database.pool.query(`DROP TRIGGER IF EXISTS refuse_start ON messages; DROP FUNCTION IF EXISTS refuse_start()`);
  await t.close();
});

describe('a campaign whose start fails', { timeout: 60_000 }, () => {
  it('is logged and left for a minute, and the campaigns due after it start and send', async () => {
    const broken = await campaignDueNow(t, { token: owner.token, clock, name: 'Broken', group, template });
    const healthy = await campaignDueNow(t, { token: owner.token, clock, name: 'Healthy', group, template });
    await t.database.pool.query(`
      CREATE FUNCTION refuse_start() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.campaign_id = ${broken.id} THEN RAISE EXCEPTION 'start refused'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_start BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION refuse_start();`);

    const ledger = new GatewayLedger();
    const logged: string[] = [];
    const engine = createEngine({
      store: createEngineStore(t.database.db),
      gateway: countingGateway(createSimulatorGateway({ latencyMs: 0, failureRate: 0 }), { ledger }),
      clock,
      options: { tickMs: 100, batchSize: 10, rateLimitPerSecond: 10_000, leaseMs: 30_000, lanes: 1 },
      urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
      log: (line) => void logged.push(line),
    });
    await vi.waitFor(
      async () => {
        await engine.tick();
        expect(ledger.total).toBe(3);
      },
      { timeout: 20_000, interval: 10 },
    );
    expect(logged.some((line) => line.includes(`campaign ${broken.id} not started`) && line.includes('start refused'))).toBe(true);
    const status = async (id: number) => (await t.database.pool.query(`SELECT status, message_count FROM campaigns WHERE id = $1`, [id])).rows[0];
    // The broken one is still due, with nothing written; the healthy one sent its three.
    expect(await status(broken.id)).toEqual({ status: 0, message_count: 0 });
    expect(Number((await t.database.pool.query(`SELECT count(*) FROM messages WHERE campaign_id = $1`, [healthy.id])).rows[0].count)).toBe(3);

    // Once the fault is gone and the minute has passed, it starts too.
    await t.database.pool.query(`DROP TRIGGER refuse_start ON messages; DROP FUNCTION refuse_start()`);
    clock.jump(61_000);
    await vi.waitFor(
      async () => {
        await engine.tick();
        expect(ledger.total).toBe(6);
      },
      { timeout: 20_000, interval: 10 },
    );
    expect(ledger.duplicates()).toEqual([]);
  });

  it('is tried again at once when the failure says nothing of it (a serialization failure, a database away)', async () => {
    const campaign = await campaignDueNow(t, { token: owner.token, clock, name: 'Unlucky', group, template });
    await t.database.pool.query(`
      CREATE FUNCTION refuse_start() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.campaign_id = ${campaign.id} THEN RAISE EXCEPTION 'could not serialize' USING ERRCODE = 'serialization_failure'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_start BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION refuse_start();`);
    const store = createEngineStore(t.database.db);
    const failures: number[] = [];
    await expect(store.startDue(clock.now(), 5, (id) => void failures.push(id))).rejects.toThrow();
    expect(failures).toEqual([]);
    await t.database.pool.query(`DROP TRIGGER refuse_start ON messages; DROP FUNCTION refuse_start()`);
    // Not left for a minute: the same store starts it on its next call, the clock unmoved.
    expect(await store.startDue(clock.now())).toEqual([campaign.id]);
  });
});
