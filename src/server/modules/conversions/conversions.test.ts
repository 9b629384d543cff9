/**
 * Conversions (issue 35, point 3): `POST /conversions` records an order once per order id and team,
 * and credits it when recorded: to the number's last human click on a tracked link within the team's
 * click window (default 5 days), else to its last delivered campaign message within the view window
 * (default 24 h, 0: off), else to none. Clicks are made through the real redirect on the test's clock;
 * each window is tried a second inside and a second outside its edge.
 *
 * Seen red: with `NOT k.is_bot` dropped from the click statement (db/revenue.ts), the bot's click
 * took the credit ('click' instead of 'view'); with the campaign's `team_id` condition dropped, team
 * B's click was credited to team A's order; with the view window's `> 0` guard dropped, a window of 0
 * still credited a delivery made at the order's very second; with the send-test condition
 * (`CREDITABLE`) made true, the send test's click took the credit.
 *
 * Revenue: a campaign's summary and the overview show the credited orders in the team's currency and
 * the other currencies apart (never converted), and nothing for a team that has recorded no
 * conversion (the summaries and overviews other tests hold stay as they were).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignSentTo, click, PREVIEW_BOT } from '../../testing/conversion-fixtures';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let admin: TestUser;
let viewer: { token: string };
let other: TestUser;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
/** A moment as RFC 3339, which `occurred_at` takes besides the house form. */
const rfc = (moment: Date) => moment.toISOString().replace(/\.\d{3}Z$/, 'Z');
let orders = 0;

const post = (user: { token: string }, body: Record<string, unknown>) => t.request('POST', '/api/2.0/conversions/', { token: user.token, body });
/** A new order of `number` at `occurredAt`: its conversion as answered. */
async function order(number: string, occurredAt: Date, user: { token: string } = admin) {
  orders += 1;
  const response = await post(user, { phone_number: number, order_id: `#${1000 + orders}`, value: 49.9, currency: 'EUR', occurred_at: rfc(occurredAt) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { uuid: string; campaign_uuid: string | null; attributed_by: 'click' | 'view' | null };
}
const settings = async (body: Record<string, unknown>) => {
  const response = await t.request('PUT', '/api/2.0/team/settings', { token: admin.token, body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  admin = await t.user({ team: 'Acme Shop' });
  const made = await t.services.users.create({ email: 'viewer@acme.test', password: 'correct-horse-battery', teamName: 'Acme Shop', role: 'viewer' });
  viewer = await t.services.tokens.issue(made.userId, 'personal', 'viewer');
  other = await t.user({ team: 'Bravo Shop' });
});
afterAll(() => t.close());

describe('recording an order', () => {
  it('answers 201 with the conversion, then 200 with the same one for its order id, changing nothing', async () => {
    clock.set('2026-06-01T09:00:00Z');
    const first = await post(admin, { phone_number: '07700 900111', order_id: 'A-1', value: '19.99', currency: 'GBP', occurred_at: '2026-06-01 09:30:00' });
    expect(first.statusCode, first.body).toBe(201);
    const conversion = first.json().data;
    expect(conversion).toEqual({
      uuid: expect.any(String),
      order_id: 'A-1',
      phone_number: '447700900111',
      click_id: null,
      value: 19.99,
      currency: 'GBP',
      // The service time zone (Europe/London, BST): 09:30 local.
      occurred_at: '2026-06-01 09:30:00',
      source: 'api',
      campaign_uuid: null,
      attributed_by: null,
      links: [{ rel: 'self', uri: `http://herald.test/api/2.0/conversions/${conversion.uuid}` }],
      created_at: '2026-06-01 10:00:00',
    });
    const repeat = await post(admin, { phone_number: '07700 900222', order_id: 'A-1', value: 500, currency: 'EUR' });
    expect(repeat.statusCode, repeat.body).toBe(200);
    expect(repeat.json().data).toEqual(conversion);
    const { rows } = await t.database.db.execute(sql`SELECT value::text, currency FROM conversions WHERE order_id = 'A-1'`);
    expect(rows).toEqual([{ value: '19.99', currency: 'GBP' }]);
    // The same order id is another team's own order.
    expect((await post(other, { phone_number: '07700 900111', order_id: 'A-1', value: 1, currency: 'GBP' })).statusCode).toBe(201);
    expect((await t.request('GET', `/api/2.0/conversions/${conversion.uuid}`, { token: other.token })).statusCode).toBe(404);
    expect((await t.request('GET', `/api/2.0/conversions/${conversion.uuid}`, { token: viewer.token })).json().data).toEqual(conversion);
  });

  it('records a repeat sent at once only once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post(admin, { phone_number: '07700 900111', order_id: 'RACE-1', value: 10, currency: 'EUR' })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((answer) => answer.json().data.uuid)).size).toBe(1);
  });

  it('refuses what it cannot record with 422 naming the field, and viewers with 403', async () => {
    const errors = async (body: Record<string, unknown>) => {
      const response = await post(admin, { phone_number: '07700 900111', order_id: 'BAD', value: 1, currency: 'EUR', ...body });
      expect(response.statusCode, response.body).toBe(422);
      return response.json().error.errors;
    };
    expect(await errors({ value: -1 })).toEqual({ value: ['The value must be at least 0.'] });
    expect(await errors({ value: 1.005 })).toEqual({ value: ['The value may have at most 2 decimals.'] });
    expect(await errors({ value: '1,50' })).toEqual({ value: ['The value must be a decimal number with at most 2 decimals, such as 19.99.'] });
    expect(await errors({ currency: 'eur' })).toEqual({ currency: ['The currency must be a three-letter ISO 4217 code in capitals, such as EUR.'] });
    expect(await errors({ order_id: '' })).toEqual({ order_id: ['The order id field is required.'] });
    expect(await errors({ phone_number: undefined })).toEqual({ phone_number: ['The phone number field is required when click id is not present.'] });
    expect(await errors({ phone_number: 'call me' })).toEqual({ phone_number: ['The phone number is not a phone number.'] });
    expect(await errors({ phone_number: undefined, click_id: 'nope1234' })).toEqual({
      click_id: ['The click id is not a short link of this team’s campaigns.'],
    });
    expect(await errors({ occurred_at: '2026-13-01 10:00:00' })).toEqual({ occurred_at: ['The occurred at is not a valid date and time.'] });
    expect(await errors({ occurred_at: rfc(at(clock.now(), HOUR)) })).toEqual({ occurred_at: ['The occurred at may not be in the future.'] });
    expect((await post(viewer, { phone_number: '07700 900111', order_id: 'V-1', value: 1, currency: 'EUR' })).statusCode).toBe(403);
    const { rows } = await t.database.db.execute(sql`SELECT 1 FROM conversions WHERE order_id IN ('BAD', 'V-1')`);
    expect(rows).toEqual([]);
  });
});

describe('attribution', () => {
  it('credits the last human click within the click window, a second inside its edge and not a second outside', async () => {
    const sent = new Date('2026-06-02T09:00:00Z');
    clock.set(sent);
    const spring = await campaignSentTo(t, admin, { name: 'Spring', numbers: ['447700900301'], deliveredAt: sent });
    const summer = await campaignSentTo(t, admin, { name: 'Summer', numbers: ['447700900301'], deliveredAt: sent });
    const clickedAt = at(sent, HOUR);
    clock.set(clickedAt);
    await click(t, spring.codes['447700900301']!);
    clock.set(at(clickedAt, HOUR));
    await click(t, summer.codes['447700900301']!);
    const lastClick = at(clickedAt, HOUR);
    clock.set(at(lastClick, 10 * DAY));
    // The later click wins.
    expect(await order('07700 900301', at(lastClick, 5 * DAY - 1000))).toMatchObject({ campaign_uuid: summer.uuid, attributed_by: 'click' });
    expect(await order('07700 900301', at(lastClick, 5 * DAY + 1000))).toMatchObject({ campaign_uuid: null, attributed_by: null });
    // Before the later click, the earlier one is the last.
    expect(await order('07700 900301', at(lastClick, -1000))).toMatchObject({ campaign_uuid: spring.uuid, attributed_by: 'click' });
    // A click after the order did not lead to it; the delivery an hour before did (view).
    expect(await order('07700 900301', at(clickedAt, -1000))).toMatchObject({ campaign_uuid: summer.uuid, attributed_by: 'view' });
    // The team's own window: 2 days.
    await settings({ click_window_days: 2 });
    expect(await order('07700 900301', at(lastClick, 2 * DAY - 1000))).toMatchObject({ campaign_uuid: summer.uuid, attributed_by: 'click' });
    expect(await order('07700 900301', at(lastClick, 2 * DAY + 1000))).toMatchObject({ attributed_by: null });
    await settings({ click_window_days: 0 });
    expect(await order('07700 900301', at(lastClick, 1000))).toMatchObject({ attributed_by: 'view' });
    await settings({ click_window_days: 5 });
  });

  it('credits the last delivered message within the view window, and none when the window is 0', async () => {
    const sent = new Date('2026-06-20T09:00:00Z');
    clock.set(sent);
    const news = await campaignSentTo(t, admin, { name: 'News', numbers: ['447700900302'], deliveredAt: sent });
    await campaignSentTo(t, admin, { name: 'Failed', numbers: ['447700900302'], deliveredAt: at(sent, HOUR), failed: true });
    clock.set(at(sent, 5 * DAY));
    // The failed message an hour later is no delivery: the earlier delivered one is credited.
    expect(await order('07700 900302', at(sent, 24 * HOUR - 1000))).toMatchObject({ campaign_uuid: news.uuid, attributed_by: 'view' });
    expect(await order('07700 900302', at(sent, 24 * HOUR + 1000))).toMatchObject({ campaign_uuid: null, attributed_by: null });
    await settings({ view_window_hours: 48 });
    expect(await order('07700 900302', at(sent, 48 * HOUR - 1000))).toMatchObject({ campaign_uuid: news.uuid, attributed_by: 'view' });
    await settings({ view_window_hours: 0 });
    expect(await order('07700 900302', sent)).toMatchObject({ attributed_by: null });
    expect(await order('07700 900302', at(sent, HOUR))).toMatchObject({ attributed_by: null });
    await settings({ view_window_hours: 24 });
  });

  it("ignores a bot's click, a send test, and another team's campaigns", async () => {
    const sent = new Date('2026-07-01T09:00:00Z');
    clock.set(sent);
    const sale = await campaignSentTo(t, admin, { name: 'Sale', numbers: ['447700900303'], deliveredAt: sent });
    const test = await campaignSentTo(t, admin, { name: 'Sale test', numbers: ['447700900303'], deliveredAt: at(sent, HOUR), test: true });
    const theirs = await campaignSentTo(t, other, { name: 'Bravo sale', numbers: ['447700900303'], deliveredAt: at(sent, HOUR) });
    clock.set(at(sent, 2 * HOUR));
    await click(t, sale.codes['447700900303']!, PREVIEW_BOT);
    await click(t, test.codes['447700900303']!);
    await click(t, theirs.codes['447700900303']!);
    clock.set(at(sent, 3 * HOUR));
    // Only Sale's delivery counts for Acme, as a view: the bot's fetch is no click.
    expect(await order('07700 900303', at(sent, 3 * HOUR))).toMatchObject({ campaign_uuid: sale.uuid, attributed_by: 'view' });
    // Bravo's own order is credited to Bravo's click.
    expect(await order('07700 900303', at(sent, 3 * HOUR), other)).toMatchObject({ campaign_uuid: theirs.uuid, attributed_by: 'click' });
  });

  it('takes a click id for the number of its message, and lists conversions by campaign and number', async () => {
    const sent = new Date('2026-07-10T09:00:00Z');
    clock.set(sent);
    const flash = await campaignSentTo(t, admin, { name: 'Flash', numbers: ['447700900304', '447700900305'], deliveredAt: sent });
    clock.set(at(sent, HOUR));
    await click(t, flash.codes['447700900305']!);
    const response = await post(admin, { click_id: flash.codes['447700900305'], order_id: 'CLICK-1', value: 120, currency: 'EUR' });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({
      phone_number: '447700900305',
      click_id: flash.codes['447700900305'],
      campaign_uuid: flash.uuid,
      attributed_by: 'click',
    });
    expect(
      (await post(admin, { phone_number: '07700 900304', click_id: flash.codes['447700900305'], order_id: 'CLICK-2', value: 1, currency: 'EUR' })).json().error
        .errors,
    ).toEqual({ click_id: ['The click id’s message went to another number than the phone number.'] });
    // Another team's click id is not this team's.
    expect((await post(other, { click_id: flash.codes['447700900305'], order_id: 'CLICK-3', value: 1, currency: 'EUR' })).statusCode).toBe(422);
    clock.set(at(sent, 3 * HOUR));
    await order('07700 900304', at(sent, 2 * HOUR));

    const list = async (query: string, user: { token: string } = viewer) => {
      const answer = await t.request('GET', `/api/2.0/conversions/?${query}`, { token: user.token });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json();
    };
    const byCampaign = await list(`campaign_uuid=${flash.uuid}`);
    expect(byCampaign.data.map((row: { order_id: string }) => row.order_id)).toEqual([expect.stringMatching(/^#/), 'CLICK-1']);
    expect(byCampaign.meta.total).toBe(2);
    expect((await list('phone_number=07700%20900305')).data.map((row: { order_id: string }) => row.order_id)).toEqual(['CLICK-1']);
    expect((await t.request('GET', `/api/2.0/conversions/?campaign_uuid=${flash.uuid}`, { token: other.token })).statusCode).toBe(422);
    expect((await list('', other)).data.every((row: { campaign_uuid: string | null }) => row.campaign_uuid !== flash.uuid)).toBe(true);
  });
});

describe('revenue', () => {
  it("shows a campaign's credited orders in the team's currency, other currencies apart, on its summary and on the overview", async () => {
    const shop = await t.user({ team: 'Revenue Shop' });
    const sent = new Date('2026-08-03T09:00:00Z');
    clock.set(sent);
    const campaign = await campaignSentTo(t, shop, {
      name: 'August',
      numbers: ['447700900401', '447700900402', '447700900403', '447700900404'],
      deliveredAt: sent,
    });
    const summary = async () => (await t.request('GET', `/api/2.0/campaigns/${campaign.uuid}/summary`, { token: shop.token })).json().data;
    const overview = async (user: TestUser = shop) =>
      (await t.request('GET', '/api/2.0/overview?from=2026-08-01&to=2026-08-31', { token: user.token })).json().data.totals;
    // No conversion yet: no revenue fields, as before.
    expect(await summary()).not.toHaveProperty('revenue');
    expect(await overview()).not.toHaveProperty('revenue');

    clock.set(at(sent, HOUR));
    await click(t, campaign.codes['447700900401']!);
    const buy = (number: string, order_id: string, value: number, currency: string, occurredAt = at(sent, 2 * HOUR)) =>
      post(shop, { phone_number: number, order_id, value, currency, occurred_at: rfc(occurredAt) });
    clock.set(at(sent, 3 * HOUR));
    expect((await buy('447700900401', 'R-1', 30.1, 'EUR')).json().data.attributed_by).toBe('click');
    expect((await buy('447700900402', 'R-2', 20, 'EUR')).json().data.attributed_by).toBe('view');
    expect((await buy('447700900403', 'R-3', 15.5, 'GBP')).json().data.attributed_by).toBe('view');
    // Not credited (after the view window): not the campaign's, nor the overview's revenue.
    clock.set(at(sent, 3 * DAY));
    expect((await buy('447700900404', 'R-4', 99, 'EUR', at(sent, 2 * DAY))).json().data.attributed_by).toBeNull();

    expect(await summary()).toMatchObject({
      recipients: 4,
      currency: 'EUR',
      orders: 2,
      revenue: 50.1,
      revenue_per_recipient: 12.525,
      revenue_other: [{ currency: 'GBP', value: 15.5, orders: 1 }],
    });
    expect(await overview()).toMatchObject({ currency: 'EUR', orders: 2, revenue: 50.1, revenue_other: [{ currency: 'GBP', value: 15.5, orders: 1 }] });
    // In the team's currency: GBP now, EUR apart.
    expect((await t.request('PUT', '/api/2.0/team/settings', { token: shop.token, body: { currency: 'GBP' } })).statusCode).toBe(200);
    expect(await summary()).toMatchObject({ currency: 'GBP', orders: 1, revenue: 15.5, revenue_other: [{ currency: 'EUR', value: 50.1, orders: 2 }] });
    // Another period: nothing.
    expect((await t.request('GET', '/api/2.0/overview?from=2026-09-01&to=2026-09-30', { token: shop.token })).json().data.totals).toMatchObject({
      orders: 0,
      revenue: 0,
      revenue_other: [],
    });
  });
});
