/**
 * Tracked links in flow messages (docs/flows.md, "Tracked links"), on the controllable clock with
 * real PostgreSQL, and the clicks made over a real socket: Herald listens on loopback and each click
 * is an HTTP GET of the short URL the message carries, as a handset's or a chat app's would be. A
 * flow's `::NAME::` becomes a short link of the message's own, made in the advance's transaction;
 * a person's click makes the branch's `last_message` `clicked` hold and counts in the step's
 * `stats.clicked`; a link-preview bot's fetch does neither; no click leaves the branch on `else`.
 * Clicks on flow links count toward no campaign.
 *
 * Seen red: with the click on a flow link not recorded (the tracked-links service's `flow_click`
 * insert removed), the clicks still redirected (302) but no click was recorded, the vanity link's
 * branch took `else` instead of `then`, and stats.clicked stayed 0 (expected 1); with the advance's
 * short links inserted after the batch's commit instead of in its transaction, "the links of a
 * batch" found the failed batch's 30 messages queued without their links (expected none).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/engine';
import { createEngineStore } from '../../engine/store/postgres-store';
import { createSimulatorGateway } from '../../gateways/sms/simulator';
import { createTestApp, createTestClock, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../testing/test-app';

const clock = createTestClock('2026-06-01T09:00:00Z');
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const PREVIEW_BOT = 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)';
let t: TestApp;
let owner: TestUser;
let port: number;
let journey: { uuid: string; steps: Array<{ id: string; type: string }> };

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => t.request(method, `/api/2.0${url}`, { token: owner.token, body });
const created = async (url: string, body: unknown) => {
  const response = await api('POST', url, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
};
const advance = async () => {
  await t.services.flowAdvance.advanceDue();
  await t.services.flowAdvance.idle();
};
const query = async (text: string, values: unknown[] = []) => (await t.database.pool.query(text, values)).rows;
const messagesTo = (phone: string) =>
  query(`SELECT id::int AS id, body FROM outbound_replies WHERE to_number = $1 AND kind = 'flow' ORDER BY created_at, id`, [phone]);
const historyOf = async (phone: string) =>
  ((await api('GET', `/contacts/${phone}/flow-runs`)).json().data as Array<{ history: Array<{ step_id: string; outcome: string | null }> }>)[0]!.history;
const statsOf = async (uuid: string) =>
  ((await api('GET', `/flows/${uuid}`)).json().data.steps as Array<{ stats: { entered: number; sent: number; clicked: number } }>).map((step) => step.stats);

/** A GET over the socket, as a handset follows a link: its status and where it redirects. */
function click(url: string, userAgent: string, host?: string): Promise<{ status: number; location: string | undefined }> {
  const { pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method: 'GET', path: pathname, headers: { 'user-agent': userAgent, ...(host ? { host } : {}) } },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode!, location: response.headers.location }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}
const linkIn = (body: string) => /(https?:\/\/\S+\/[0-9A-Za-z]{7})\b/.exec(body)![1]!;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
  await api('PUT', '/team/settings', { time_zone: 'Europe/London' });
  const ownDomain = ((await api('GET', '/vanity-domains/')).json().data as Array<{ uuid: string; is_default: boolean }>).find((d) => d.is_default)!.uuid;
  const welcome = (await created('/templates/', { name: 'Welcome', body: 'Hi {{first_name|there}}, new in: ::shop:: See you!', sender: 'Acme' })).uuid;
  await created('/links/', { template_uuid: welcome, vanity_domain_uuid: ownDomain, name: 'shop', destination: 'https://shop.example/new?utm=sms' });
  const thanks = (await created('/templates/', { name: 'Thanks', body: 'Thanks for looking!', sender: 'Acme' })).uuid;
  const nudge = (await created('/templates/', { name: 'Nudge', body: 'Your 10% is still waiting.', sender: 'Acme' })).uuid;
  journey = await created('/flows/', {
    name: 'Clicks',
    trigger: { type: 'api' },
    enabled: true,
    steps: [
      { type: 'send', template_uuid: welcome },
      { type: 'wait', minutes: 60 },
      {
        type: 'branch',
        condition: { type: 'last_message', event: 'clicked' },
        then: [{ type: 'send', template_uuid: thanks }],
        else: [{ type: 'send', template_uuid: nudge }],
      },
    ],
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

const startRun = async (phone: string, uuid = journey.uuid) => {
  const response = await api('POST', `/flows/${uuid}/runs`, { phone_number: phone });
  expect(response.statusCode, response.body).toBe(201);
  await advance();
};

describe('a flow message with a link', () => {
  const PERSON = '447700900601';
  const BOT = '447700900602';
  const NOBODY = '447700900603';

  it('carries a short link of its own, recorded with the message', async () => {
    await startRun(PERSON);
    const [message] = await messagesTo(PERSON);
    expect(message!.body).toMatch(new RegExp(`^Hi there, new in: ${TEST_PUBLIC_URL}/l/[0-9A-Za-z]{7} See you!$`));
    const links = await query(
      `SELECT code, message_id, outbound_reply_id::int AS reply, link_name, destination FROM short_links WHERE outbound_reply_id = $1`,
      [message!.id],
    );
    expect(links).toEqual([
      {
        code: linkIn(message!.body).split('/').at(-1),
        message_id: null,
        reply: message!.id,
        link_name: 'shop',
        destination: 'https://shop.example/new?utm=sms',
      },
    ]);
    // The inbox's thread shows the message as it was sent, short link and all.
    const thread = await api('GET', `/conversations/${PERSON}`);
    expect(thread.statusCode, thread.body).toBe(200);
    expect(thread.json().data).toEqual([expect.objectContaining({ direction: 'outbound', body: message!.body, status: 'queued' })]);
  });

  it("a person's click over HTTP redirects, is recorded, and the branch takes `then`", async () => {
    const [message] = await messagesTo(PERSON);
    const answer = await click(linkIn(message!.body), IPHONE);
    expect(answer).toEqual({ status: 302, location: 'https://shop.example/new?utm=sms' });
    const clicks = await query(
      `SELECT k.campaign_id, k.sequence, k.is_bot, k.device_type FROM link_clicks k JOIN short_links s ON s.code = k.code WHERE s.outbound_reply_id = $1`,
      [message!.id],
    );
    expect(clicks).toEqual([{ campaign_id: null, sequence: null, is_bot: false, device_type: 'mobile' }]);
    // A second tap is a click too, but the run is counted once.
    expect((await click(linkIn(message!.body), IPHONE)).status).toBe(302);

    clock.advance(61 * 60_000);
    await advance();
    await advance();
    expect((await historyOf(PERSON)).map((step) => step.outcome)).toEqual(['sent', 'waited', 'then', 'sent']);
    expect((await messagesTo(PERSON)).map((m) => m.body).slice(1)).toEqual(['Thanks for looking!']);
    expect((await statsOf(journey.uuid))[0]).toEqual({ entered: 1, sent: 1, clicked: 1, exited: 0 });
  });

  it("a link-preview bot's fetch redirects but is no click: the branch takes `else`", async () => {
    await startRun(BOT);
    const [message] = await messagesTo(BOT);
    expect(await click(linkIn(message!.body), PREVIEW_BOT)).toEqual({ status: 302, location: 'https://shop.example/new?utm=sms' });
    const clicks = await query(`SELECT k.is_bot FROM link_clicks k JOIN short_links s ON s.code = k.code WHERE s.outbound_reply_id = $1`, [message!.id]);
    expect(clicks).toEqual([{ is_bot: true }]);
    clock.advance(61 * 60_000);
    await advance();
    await advance();
    expect((await historyOf(BOT)).map((step) => step.outcome)).toEqual(['sent', 'waited', 'else', 'sent']);
    expect((await messagesTo(BOT)).map((m) => m.body).slice(1)).toEqual(['Your 10% is still waiting.']);
    expect((await statsOf(journey.uuid))[0]).toEqual({ entered: 2, sent: 2, clicked: 1, exited: 0 });
  });

  it('without a click, the wait ends on `else`', async () => {
    await startRun(NOBODY);
    clock.advance(61 * 60_000);
    await advance();
    await advance();
    expect((await historyOf(NOBODY)).map((step) => step.outcome)).toEqual(['sent', 'waited', 'else', 'sent']);
    expect((await statsOf(journey.uuid))[0]).toEqual({ entered: 3, sent: 3, clicked: 1, exited: 0 });
  });

  it("counts toward no campaign: the overview's clicks and every campaign's counts stay as they were", async () => {
    expect(await query(`SELECT count(*)::int AS n FROM link_clicks WHERE campaign_id IS NOT NULL`)).toEqual([{ n: 0 }]);
    const [hourly] = await query(`SELECT coalesce(sum(human_clicks), 0)::int AS clicks FROM team_hourly_counts`);
    expect(hourly).toEqual({ clicks: 0 });
  });

  it("the click shows in the contact's export, and erasure forgets its address and user agent", async () => {
    const exported = (await api('GET', `/contacts/${PERSON}/export`)).json().data;
    const replies = exported.replies as Array<{ body: string; clicks?: Array<{ link_name: string; is_bot: boolean; user_agent: string | null }> }>;
    const welcome = replies.find((reply) => reply.body.startsWith('Hi there'))!;
    expect(welcome.clicks).toEqual([
      expect.objectContaining({ link_name: 'shop', is_bot: false, user_agent: IPHONE }),
      expect.objectContaining({ link_name: 'shop', is_bot: false, user_agent: IPHONE }),
    ]);
    // The engine's reply sender sends what the flow queued (a number is erased once nothing is left to send it).
    const engine = createEngine({
      store: createEngineStore(t.database.db),
      gateway: createSimulatorGateway({ latencyMs: 0, failureRate: 0 }),
      clock,
      options: { tickMs: 1000, batchSize: 50, rateLimitPerSecond: 1000, leaseMs: 30_000, lanes: 1 },
      urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
    });
    await engine.tick();
    // Found before the erasure, which blanks the message's text with the number.
    const [message] = await query(`SELECT id::int AS id FROM outbound_replies WHERE to_number = $1 AND body LIKE 'Hi there%' ORDER BY id LIMIT 1`, [PERSON]);
    const erased = await api('DELETE', `/contacts/${PERSON}`);
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().data.clicks_anonymised).toBe(2);
    expect(
      await query(`SELECT k.user_agent, k.ip FROM link_clicks k JOIN short_links s ON s.code = k.code WHERE s.outbound_reply_id = $1`, [message!.id]),
    ).toEqual([
      { user_agent: null, ip: null },
      { user_agent: null, ip: null },
    ]);
  });
});

describe("a link on the team's vanity domain", () => {
  it('is sent on that domain and followed there, as a campaign link is', async () => {
    const domain = (await created('/vanity-domains/', { domain: 'go.acme.com' })).uuid;
    const template = (await created('/templates/', { name: 'Vanity', body: 'Look: ::go::', sender: 'Acme' })).uuid;
    await created('/links/', { template_uuid: template, vanity_domain_uuid: domain, name: 'go', destination: 'https://acme.com/sale' });
    const vanity = await created('/flows/', {
      name: 'Vanity',
      trigger: { type: 'api' },
      enabled: true,
      steps: [
        { type: 'send', template_uuid: template },
        { type: 'wait', minutes: 5 },
        { type: 'branch', condition: { type: 'last_message', event: 'clicked' }, then: [{ type: 'end' }], else: [{ type: 'send', template_uuid: template }] },
      ],
    });
    const PHONE = '447700900604';
    await startRun(PHONE, vanity.uuid);
    const [message] = await messagesTo(PHONE);
    expect(message!.body).toMatch(/^Look: https:\/\/go\.acme\.com\/[0-9A-Za-z]{7}$/);
    const code = linkIn(message!.body).split('/').at(-1)!;
    expect(await click(`http://127.0.0.1/${code}`, IPHONE, 'go.acme.com')).toEqual({ status: 302, location: 'https://acme.com/sale' });
    clock.advance(6 * 60_000);
    await advance();
    await advance();
    expect((await historyOf(PHONE)).map((step) => step.outcome)).toEqual(['sent', 'waited', 'then', 'ended']);
    expect(await messagesTo(PHONE)).toHaveLength(1);
  });
});

describe('the links of a batch', () => {
  const numbers = Array.from({ length: 30 }, (_, i) => `4477009007${String(i).padStart(2, '0')}`);

  it('commit with its messages or not at all, and each message has its own', async () => {
    for (const phone of numbers) expect((await api('POST', `/flows/${journey.uuid}/runs`, { phone_number: phone })).statusCode).toBe(201);
    // Each run enters the send; the next batch does it.
    await t.services.flowAdvance.advanceBatch(1000);
    // A failure after the batch's messages were inserted, as their links are: one of them refuses.
    await t.database.pool.query(`
      CREATE FUNCTION refuse_short_link() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF (SELECT to_number FROM outbound_replies WHERE id = NEW.outbound_reply_id) = '${numbers[17]}' THEN RAISE EXCEPTION 'database went away'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_short_link BEFORE INSERT ON short_links FOR EACH ROW EXECUTE FUNCTION refuse_short_link();`);
    await expect(t.services.flowAdvance.advanceBatch(1000)).rejects.toThrow();
    const linksOf = () =>
      query(
        `SELECT o.to_number, count(s.code)::int AS n FROM outbound_replies o LEFT JOIN short_links s ON s.outbound_reply_id = o.id
          WHERE o.to_number = ANY($1) GROUP BY 1`,
        [numbers],
      );
    expect(await linksOf()).toEqual([]);
    expect(await query(`SELECT count(*)::int AS n FROM short_links WHERE outbound_reply_id IS NULL AND message_id IS NULL`)).toEqual([{ n: 0 }]);
    await t.database.pool.query(`DROP TRIGGER refuse_short_link ON short_links; DROP FUNCTION refuse_short_link();`);
    // Done again, and at once by two advances: one message a number, one link a message.
    await Promise.all([t.services.flowAdvance.advanceBatch(10), t.services.flowAdvance.advanceBatch(1000), advance()]);
    const rows = await linksOf();
    expect(rows).toHaveLength(numbers.length);
    expect(rows.every((row: { n: number }) => row.n === 1)).toBe(true);
    const bodies = await query(`SELECT body FROM outbound_replies WHERE to_number = ANY($1)`, [numbers]);
    expect(new Set(bodies.map((row: { body: string }) => linkIn(row.body))).size).toBe(numbers.length);
  });
});
