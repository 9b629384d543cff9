/**
 * A/B tests (issue 35, point 2; docs/ab-tests.md) on the controllable clock, counted at the gateway:
 * the test share split evenly and reproducibly, each variant's template and sender sent, nothing
 * beyond the test before the decision, the decision (clear, not significant, by hand), the rest of
 * the audience sent the winner, and a window that counts sending time only.
 *
 * Shown able to fail (each run red, then put back): with the engine rendering every message with
 * the campaign's template (the variant ignored), the three sending tests went red (variant B's
 * recipients got "Offer A"); with finishDone's A/B condition removed, the campaign finished after its
 * test, before any decision, and the same three went red; with writeRest's NOT EXISTS removed, the
 * rest's insert wrote the test recipients again and they went red; with the planned pauses left out
 * of sendingTimeBetween, "a planned pause does not count" decided at 65 minutes and "sending time"
 * went red; with a click joined to the message of its own sequence (link_clicks.sequence numbers
 * clicks, not messages), "counts each variant's human clickers" found B's clickers elsewhere, and
 * with the currency condition left out of abFiguresOf, B's two orders in another currency counted.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSimulatorGateway } from '../gateways/sms/simulator';
import type { SmsGateway } from '../gateways/sms/sms-gateway';
import { countingGateway, GatewayLedger } from '../testing/counting-gateway';
import { liveClock } from '../testing/engine-campaigns';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';
import { sendingTimeBetween } from '../modules/campaigns/ab-decisions';
import { createEngine } from './engine';
import { createEngineStore } from './store/postgres-store';

const clock = liveClock('2026-06-01T09:00:00Z');
const RECIPIENTS = 200;
const WAIT = { timeout: 30_000, interval: 10 };
let t: TestApp;
let owner: TestUser;
let templateA: string;
let templateB: string;
let group: string;

const at = (ms: number) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/London', dateStyle: 'short', timeStyle: 'medium' }).format(new Date(clock.now().getTime() + ms));

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
  const template = async (name: string, body: string) =>
    (await t.request('POST', '/api/2.0/templates/', { token: owner.token, body: { name, body, sender: 'Acme' } })).json().data.uuid as string;
  templateA = await template('Offer A', 'Offer A for {{first_name}}');
  templateB = await template('Offer B', 'Offer B, 20% off');
  group = (await t.request('POST', '/api/2.0/contact-groups/', { token: owner.token, body: { name: 'Two hundred' } })).json().data.uuid;
  const contacts = Array.from({ length: RECIPIENTS }, (_, i) => ({
    phone_number: `07700900${String(i).padStart(3, '0')}`,
    custom_fields: { first_name: `N${i}` },
  }));
  await t.request('PUT', `/api/2.0/contact-groups/${group}/add-contacts`, { token: owner.token, body: { contacts } });
});
afterAll(() => t.close());

/** An A/B campaign of variants A (the campaign's own) and B (sender Shop), due now: half the audience tested, at least 40 each. */
async function abCampaign(options: { metric?: string; minutes?: number; throttled?: boolean; pauses?: Array<{ start_at: string; end_at: string }> } = {}) {
  const response = await t.request('POST', '/api/2.0/campaigns/', {
    token: owner.token,
    body: {
      name: 'A/B',
      sender: 'Acme',
      scheduled_send_date: at(2000),
      expiry_date: at(86_400_000),
      included_contact_groups: [group],
      excluded_contact_groups: [],
      template_uuid: templateA,
      ...(options.throttled ? { throttled: true, scheduled_finish_date: at(4 * 3_600_000), pauses: options.pauses ?? [] } : {}),
      variants: [
        { name: 'A', template_uuid: templateA },
        { name: 'B', template_uuid: templateB, sender: 'Shop' },
      ],
      ab_test: { test_share: 50, metric: options.metric ?? 'conversion_rate', decide_after_minutes: options.minutes ?? 120, min_recipients_per_variant: 40 },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  clock.jump(2000);
  const uuid = response.json().data.uuid as string;
  return { uuid, id: Number((await t.database.pool.query(`SELECT id FROM campaigns WHERE uuid = $1`, [uuid])).rows[0].id) };
}

/** The simulator, counted, with the sender of each hand-over recorded by number. */
function gatewayOf(ledger: GatewayLedger, senders: Map<string, string>): SmsGateway {
  const simulator = createSimulatorGateway({ latencyMs: 0, failureRate: 0 });
  const counted = countingGateway(simulator, { ledger });
  return {
    ...counted,
    submit(batch, options) {
      for (const sms of batch) senders.set(sms.to, sms.from);
      return counted.submit(batch, options);
    },
  };
}

const engineWith = (gateway: SmsGateway) =>
  createEngine({
    store: createEngineStore(t.database.db),
    gateway,
    clock,
    options: { tickMs: 100, batchSize: 25, rateLimitPerSecond: 10_000, leaseMs: 30_000, lanes: 1 },
    urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
  });

const messages = async (id: number) =>
  (await t.database.pool.query(`SELECT id, phone_number, variant, status FROM messages WHERE campaign_id = $1 ORDER BY sequence`, [id])).rows as Array<{
    id: string;
    phone_number: string;
    variant: number;
    status: string;
  }>;
const campaignRow = async (id: number) => (await t.database.pool.query(`SELECT * FROM campaigns WHERE id = $1`, [id])).rows[0];
const show = async (uuid: string) => (await t.request('GET', `/api/2.0/campaigns/${uuid}`, { token: owner.token })).json().data;

/** Orders credited to `count` delivered messages of a variant (what attribution, issue 35 point 3, writes). */
async function convert(id: number, variant: number, count: number) {
  await t.database.pool.query(
    `INSERT INTO conversions (team_id, order_id, phone_number, value, currency, occurred_at, source, campaign_id, message_id, attributed_by, created_at)
     SELECT c.team_id, 'o-' || m.id, m.phone_number, 30, t.currency, now(), 'api', c.id, m.id, 'view', now()
       FROM messages m JOIN campaigns c ON c.id = m.campaign_id JOIN teams t ON t.id = c.team_id
      WHERE m.campaign_id = $1 AND m.variant = $2 ORDER BY m.sequence LIMIT $3`,
    [id, variant, count],
  );
}

/** Ticks until the campaign has nothing queued that may go now. */
async function sendAll(engine: ReturnType<typeof engineWith>, id: number, expected: number) {
  await vi.waitFor(async () => {
    await engine.tick();
    const row = await campaignRow(id);
    expect(row.delivered_count + row.submitted_count).toBe(expected);
  }, WAIT);
  await engine.flushReceipts();
}

describe('A/B tests', { timeout: 120_000 }, () => {
  it('splits the test share evenly at random, the same way for the same seed, and holds the rest', async () => {
    const first = await abCampaign();
    const second = await abCampaign();
    await t.database.pool.query(`UPDATE campaigns SET ab_seed = 424242 WHERE id = ANY($1)`, [[first.id, second.id]]);
    const store = createEngineStore(t.database.db);
    await store.startDue(clock.now());
    const [a, b] = [await messages(first.id), await messages(second.id)];
    // Half the audience (100), 50 a variant; the other 100 not written.
    expect(a.length).toBe(100);
    expect(a.filter((m) => m.variant === 0).length).toBe(50);
    expect(a.filter((m) => m.variant === 1).length).toBe(50);
    expect(b.map((m) => [m.phone_number, m.variant])).toEqual(a.map((m) => [m.phone_number, m.variant]));
    // At random: not the first or last hundred numbers, and the variants are not in runs of numbers.
    expect(a[0]!.phone_number).not.toBe('447700900000');
    expect(a.some((m) => m.phone_number > '447700900150')).toBe(true);
    expect(new Set(a.slice(0, 20).map((m) => m.variant)).size).toBe(2);
    // Another seed draws another test.
    const third = await abCampaign();
    await store.startDue(clock.now());
    expect((await messages(third.id)).map((m) => m.phone_number)).not.toEqual(a.map((m) => m.phone_number));
    const summary = (await t.request('GET', `/api/2.0/campaigns/${first.uuid}/summary`, { token: owner.token })).json().data;
    expect(summary.recipients).toBe(RECIPIENTS);
    expect(summary.variants.map((v: { name: string; recipients: number }) => [v.name, v.recipients])).toEqual([
      ['A', 50],
      ['B', 50],
    ]);
    await t.database.pool.query(`UPDATE campaigns SET stopped_at = now(), stop_swept = true, status = 2 WHERE id = ANY($1)`, [[first.id, second.id, third.id]]);
  });

  it('counts each variant’s human clickers through the short links their messages carry (not by click number), and its orders in the team’s currency', async () => {
    const { uuid, id } = await abCampaign({ metric: 'human_click_rate' });
    await createEngineStore(t.database.db).startDue(clock.now());
    const tested = await messages(id);
    // Eight of B's recipients click (one twice), numbered 1, 2, … per campaign as the click recorder numbers them; a bot opens one of A's.
    const clickers = tested.filter((m) => m.variant === 1).slice(0, 8);
    const clicks = [...clickers, clickers[0]!].map((m) => ({ message: m.id, bot: false }));
    clicks.push({ message: tested.find((m) => m.variant === 0)!.id, bot: true });
    for (const [n, click] of clicks.entries()) {
      const code = `ab${id}x${n}`;
      await t.database.pool.query(`INSERT INTO short_links (code, message_id, link_name, destination) VALUES ($1, $2, 'Shop', 'https://shop.example.com/')`, [
        code,
        click.message,
      ]);
      await t.database.pool.query(`INSERT INTO link_clicks (code, campaign_id, sequence, is_bot) VALUES ($1, $2, $3, $4)`, [code, id, n + 1, click.bot]);
    }
    // Three of B's orders in the team's currency, two in another: only the first three count (the others are shown apart, never added in).
    await convert(id, 1, 3);
    await t.database.pool.query(
      `INSERT INTO conversions (team_id, order_id, phone_number, value, currency, occurred_at, source, campaign_id, message_id, attributed_by, created_at)
       SELECT c.team_id, 'usd-' || m.id, m.phone_number, 99, CASE WHEN t.currency = 'USD' THEN 'CHF' ELSE 'USD' END, now(), 'api', c.id, m.id, 'view', now()
         FROM messages m JOIN campaigns c ON c.id = m.campaign_id JOIN teams t ON t.id = c.team_id
        WHERE m.campaign_id = $1 AND m.variant = 1 ORDER BY m.sequence DESC LIMIT 2`,
      [id],
    );
    const results = (await show(uuid)).ab_test.results as Array<{ name: string; human_clicks: number; conversions: number; revenue: number }>;
    expect(results.map((r) => [r.name, r.human_clicks, r.conversions, r.revenue])).toEqual([
      ['A', 0, 0, 0],
      ['B', 8, 3, 90],
    ]);
    await t.database.pool.query(`UPDATE campaigns SET stopped_at = now(), stop_swept = true, status = 2 WHERE id = $1`, [id]);
  });

  it("sends each variant's messages with its template and sender, nothing beyond the test before the decision; a clear winner then goes to the rest", async () => {
    const { uuid, id } = await abCampaign();
    const ledger = new GatewayLedger();
    const senders = new Map<string, string>();
    const engine = engineWith(gatewayOf(ledger, senders));
    await sendAll(engine, id, 100);
    const tested = await messages(id);
    for (const m of tested) {
      expect(ledger.bodiesByNumber.get(m.phone_number)).toEqual([m.variant === 0 ? `Offer A for N${Number(m.phone_number.slice(-3))}` : 'Offer B, 20% off']);
      expect(senders.get(m.phone_number)).toBe(m.variant === 0 ? 'Acme' : 'Shop');
    }
    // An hour later (within the window), and many ticks: still only the test.
    clock.jump(60 * 60_000);
    for (let i = 0; i < 20; i++) await engine.tick();
    expect(await t.services.abDecisions.run()).toEqual([]);
    expect(ledger.total).toBe(100);
    expect((await campaignRow(id)).status).toBe(1);
    expect((await show(uuid)).ab_test).toMatchObject({ status: 'testing', winner: null });

    // B converts 12 of 50, A 2 of 50: B is best with a probability well over 0.9.
    await convert(id, 1, 12);
    await convert(id, 0, 2);
    clock.jump(61 * 60_000);
    expect(await t.services.abDecisions.run()).toEqual([id]);
    const decided = (await show(uuid)).ab_test;
    expect(decided).toMatchObject({ status: 'decided', winner: 'B', decided_by: 'auto' });
    expect(decided.probability).toBeGreaterThanOrEqual(0.9);
    expect(decided.results.map((r: { name: string; conversions: number }) => [r.name, r.conversions])).toEqual([
      ['A', 2],
      ['B', 12],
    ]);

    await vi.waitFor(async () => {
      await engine.tick();
      expect((await campaignRow(id)).status).toBe(2);
    }, WAIT);
    await engine.flushReceipts();
    expect([ledger.total, ledger.duplicates()]).toEqual([RECIPIENTS, []]);
    const testedNumbers = new Set(tested.map((m) => m.phone_number));
    const rest = (await messages(id)).filter((m) => !testedNumbers.has(m.phone_number));
    expect(rest.length).toBe(100);
    for (const m of rest) {
      expect(m.variant).toBe(1);
      expect(ledger.bodiesByNumber.get(m.phone_number)).toEqual(['Offer B, 20% off']);
      expect(senders.get(m.phone_number)).toBe('Shop');
    }
    // The delivery report names each message's variant, and its sender.
    const page = async (n: number) =>
      (await t.request('GET', `/api/2.0/reporting/${uuid}/delivery?per_page=100&page=${n}`, { token: owner.token })).json().data as Array<{
        Recipient: string;
        Sender: string;
        variant: string;
      }>;
    const report = [...(await page(1)), ...(await page(2))];
    expect(report.length).toBe(RECIPIENTS);
    const variantOf = new Map((await messages(id)).map((m) => [m.phone_number, m.variant === 0 ? 'A' : 'B']));
    for (const row of report) {
      expect(row.variant).toBe(variantOf.get(row.Recipient));
      expect(row.Sender).toBe(row.variant === 'A' ? 'Acme' : 'Shop');
    }
    // The decision is in the audit log.
    const audit = await t.database.pool.query(
      `SELECT action, actor_name, changes FROM audit_events WHERE resource_uuid = $1 AND action = 'campaigns.ab_test.decided'`,
      [uuid],
    );
    expect(audit.rows[0]?.changes['ab_test.winner']).toEqual({ after: 'B' });
  });

  it('a close result is not significant: the first variant wins and the rest get it', async () => {
    const { uuid, id } = await abCampaign();
    const ledger = new GatewayLedger();
    const engine = engineWith(gatewayOf(ledger, new Map()));
    await sendAll(engine, id, 100);
    await convert(id, 0, 5);
    await convert(id, 1, 6);
    clock.jump(121 * 60_000);
    expect(await t.services.abDecisions.run()).toEqual([id]);
    const decided = (await show(uuid)).ab_test;
    expect(decided).toMatchObject({ status: 'decided', winner: 'A', decided_by: 'not_significant' });
    expect(decided.probability).toBeLessThan(0.9);
    await vi.waitFor(async () => {
      await engine.tick();
      expect((await campaignRow(id)).status).toBe(2);
    }, WAIT);
    await engine.flushReceipts();
    expect(ledger.total).toBe(RECIPIENTS);
    const rest = (await messages(id)).slice().filter((m) => m.variant === 0);
    expect(rest.length).toBe(150);
    for (const m of rest) expect(ledger.bodiesByNumber.get(m.phone_number)![0]).toMatch(/^Offer A for N/);
  });

  it('a winner picked by hand before the window ends; a second pick is refused (409)', async () => {
    const { uuid, id } = await abCampaign();
    const pick = (variant: string) => t.request('POST', `/api/2.0/campaigns/${uuid}/ab-test/winner`, { token: owner.token, body: { variant } });
    expect((await pick('B')).statusCode).toBe(409); // not started yet
    const ledger = new GatewayLedger();
    const engine = engineWith(gatewayOf(ledger, new Map()));
    await sendAll(engine, id, 100);
    expect((await pick('C')).statusCode).toBe(422);
    const picked = await pick('B');
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json().data.ab_test).toMatchObject({ status: 'decided', winner: 'B', decided_by: 'manual', probability: null });
    expect((await pick('A')).statusCode).toBe(409);
    await vi.waitFor(async () => {
      await engine.tick();
      expect((await campaignRow(id)).status).toBe(2);
    }, WAIT);
    expect(ledger.total).toBe(RECIPIENTS);
    expect((await messages(id)).filter((m) => m.variant === 1).length).toBe(150);
  });

  it('a planned pause does not count towards the window', async () => {
    // Throttled over four hours; a pause from 10 to 70 minutes after the start; a 60-minute window.
    const start = clock.now().getTime() + 2000;
    const stamp = (minutes: number) => at(2000 + minutes * 60_000);
    const { uuid, id } = await abCampaign({ throttled: true, minutes: 60, pauses: [{ start_at: stamp(10), end_at: stamp(70) }] });
    await createEngineStore(t.database.db).startDue(clock.now());
    clock.jump(65 * 60_000 - (clock.now().getTime() - start));
    expect(await t.services.abDecisions.run()).toEqual([]);
    expect((await show(uuid)).ab_test.sending_minutes).toBeCloseTo(10, 0);
    clock.jump(60 * 60_000);
    expect(await t.services.abDecisions.run()).toEqual([id]);
    expect((await show(uuid)).ab_test.status).toBe('decided');
    await t.database.pool.query(`UPDATE campaigns SET stopped_at = now(), stop_swept = true, status = 2 WHERE id = $1`, [id]);
  });
});

describe('sending time', () => {
  const base = Date.parse('2026-06-01T12:00:00Z');
  const hour = 3_600_000;
  it('leaves out pauses by hand, planned pauses and quiet hours in the team zone', () => {
    const none = { paused: false, quiet: null, zone: 'Europe/London', pauses: [] };
    expect(sendingTimeBetween(none, base, base + 2 * hour, 'UTC')).toBe(2 * hour);
    expect(sendingTimeBetween({ ...none, paused: true }, base, base + 2 * hour, 'UTC')).toBe(0);
    const pauses = [{ start: new Date(base + hour), end: new Date(base + 3 * hour) }];
    expect(sendingTimeBetween({ ...none, pauses }, base, base + 2 * hour, 'UTC')).toBe(hour);
    // Quiet hours 21:00–08:00 in London (BST, UTC+1): 20:00–07:00 UTC. From 18:00 to 22:00 UTC: two hours count.
    const quiet = { start: '21:00', end: '08:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const };
    expect(sendingTimeBetween({ ...none, quiet: { ...quiet, days: [...quiet.days] } }, base + 6 * hour, base + 10 * hour, 'UTC')).toBe(2 * hour);
  });
});
