/**
 * Revenue per segment (issue 35, point 3), counted by hand: a campaign to the segments Gold and VIP
 * and the group Extra starts (the engine's real start fixes its list and records the segments each
 * number matched), its messages are delivered with a tracked link, and orders come in through
 * `POST /conversions`, credited by a click or by a view. The campaign's summary shows each segment's
 * recipients, orders, revenue and revenue per recipient (other currencies apart), and each segment's
 * revenue endpoint shows the campaign with that segment's figures:
 *
 * - 01 gold (and in Extra), clicked: 10.00 GBP, credited by click;
 * - 02 gold: 5.00 GBP, credited by view; turned silver after the start (still Gold's: the record counts);
 * - 03 gold and VIP: 20.00 GBP by view, counted in both segments;
 * - 04 VIP, clicked: 7.50 EUR by click, apart from the GBP figures;
 * - 05 in Extra only: 100.00 GBP by view, under no segment;
 * - 06 silver, in no included group: not a recipient.
 *
 * Seen red: with the start's record of segments removed (start.ts inserting campaign_audience
 * without `segment_ids`), every segment had 0 recipients and 0 orders.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineStore } from '../../engine/store/postgres-store';
import { click } from '../../testing/conversion-fixtures';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let gold: string;
let vip: string;
let campaign: string;

const number = (i: number) => `4477009031${String(i).padStart(2, '0')}`;
const api = async (method: 'POST' | 'PUT' | 'GET', path: string, body?: unknown, user = owner) => {
  const response = await t.request(method, `/api/2.0${path}`, { token: user.token, body });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json().data;
};

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user({ team: 'Segment Shop' });
  stranger = await t.user({ team: 'Other Shop' });
  await api('PUT', '/team/settings', { currency: 'GBP' });
  const all = (await api('POST', '/contact-groups/', { name: 'All' })).uuid;
  const extra = (await api('POST', '/contact-groups/', { name: 'Extra' })).uuid;
  const tiers: Record<number, Record<string, string>> = {
    1: { tier: 'gold' },
    2: { tier: 'gold' },
    3: { tier: 'gold', vip: 'yes' },
    4: { tier: 'silver', vip: 'yes' },
    6: { tier: 'silver' },
  };
  await api('PUT', `/contact-groups/${all}/add-contacts`, {
    contacts: Object.entries(tiers).map(([i, custom_fields]) => ({ phone_number: number(Number(i)), custom_fields })),
  });
  await api('PUT', `/contact-groups/${extra}/add-contacts`, { contacts: [{ phone_number: number(5) }, { phone_number: number(1) }] });
  gold = (await api('POST', '/segments/', { name: 'Gold', match: 'all', conditions: [{ type: 'field', field: 'tier', op: 'equals', value: 'gold' }] })).uuid;
  vip = (await api('POST', '/segments/', { name: 'VIP', match: 'all', conditions: [{ type: 'field', field: 'vip', op: 'equals', value: 'yes' }] })).uuid;
  const template = (await api('POST', '/templates/', { name: 'Sale', body: 'Sale today', sender: 'Acme' })).uuid;
  campaign = (
    await api('POST', '/campaigns/', {
      name: 'June sale',
      sender: 'Acme',
      scheduled_send_date: '2026-06-01 10:00:05',
      expiry_date: '2026-06-02 10:00:00',
      included_contact_groups: [extra],
      included_segments: [gold, vip],
      template_uuid: template,
    })
  ).uuid;
  clock.set('2026-06-01T09:00:10Z');
  expect(await createEngineStore(t.database.db).startDue(clock.now())).toHaveLength(1);
  // 02 turns silver after the start: the campaign's figures keep it in Gold.
  await api('PUT', `/contact-groups/${all}/add-contacts`, { contacts: [{ phone_number: number(2), custom_fields: { tier: 'silver' } }] });
  // Every message delivered at 09:01 with a tracked link, as the engine leaves them.
  const delivered = new Date('2026-06-01T09:01:00Z');
  await t.database.db.execute(sql`
    WITH m AS (
      UPDATE messages SET status = 'delivered', body = 'Sale today http://herald.test/l/' || right(phone_number, 8), gateway_id = 'gw-' || phone_number,
                          submitted_by = 'test', submitted_at = ${delivered}, finished_at = ${delivered}
       WHERE campaign_id = (SELECT id FROM campaigns WHERE uuid = ${campaign}) RETURNING id, phone_number)
    INSERT INTO short_links (code, message_id, link_name, destination, created_at)
    SELECT 's' || right(m.phone_number, 8), m.id, 'url', 'https://shop.example.com/', ${delivered} FROM m`);
  clock.set('2026-06-01T09:10:00Z');
  await click(t, `s${number(1).slice(-8)}`);
  await click(t, `s${number(4).slice(-8)}`);
  clock.set('2026-06-01T09:20:00Z');
  const orders: Array<[number, number, string, string]> = [
    [1, 10, 'GBP', 'click'],
    [2, 5, 'GBP', 'view'],
    [3, 20, 'GBP', 'view'],
    [4, 7.5, 'EUR', 'click'],
    [5, 100, 'GBP', 'view'],
  ];
  for (const [i, value, currency, by] of orders) {
    const conversion = await api('POST', '/conversions/', { phone_number: number(i), order_id: `S-${i}`, value, currency });
    expect([conversion.campaign_uuid, conversion.attributed_by]).toEqual([campaign, by]);
  }
});
afterAll(() => t.close());

describe('revenue per segment', () => {
  it("shows each included segment's figures on the campaign's summary, from the recipients recorded at the start", async () => {
    const summary = await api('GET', `/campaigns/${campaign}/summary`);
    expect(summary).toMatchObject({
      recipients: 5,
      currency: 'GBP',
      orders: 4,
      revenue: 135,
      revenue_per_recipient: 27,
      revenue_other: [{ currency: 'EUR', value: 7.5, orders: 1 }],
    });
    expect(summary.segments).toEqual([
      // 01, 02, 03: 10 + 5 + 20.
      { segment_uuid: gold, name: 'Gold', recipients: 3, orders: 3, revenue: 35, revenue_per_recipient: 11.6667, revenue_other: [] },
      // 03 and 04: 20 GBP, and 7.50 EUR apart.
      {
        segment_uuid: vip,
        name: 'VIP',
        recipients: 2,
        orders: 1,
        revenue: 20,
        revenue_per_recipient: 10,
        revenue_other: [{ currency: 'EUR', value: 7.5, orders: 1 }],
      },
    ]);
  });

  it('shows the campaigns that sent to a segment with its figures in each, to its team only', async () => {
    expect(await api('GET', `/segments/${gold}/revenue`)).toEqual({
      currency: 'GBP',
      campaigns: [
        {
          campaign_uuid: campaign,
          name: 'June sale',
          started_at: '2026-06-01 10:00:10',
          recipients: 3,
          orders: 3,
          revenue: 35,
          revenue_per_recipient: 11.6667,
          revenue_other: [],
        },
      ],
      more: false,
    });
    expect((await api('GET', `/segments/${vip}/revenue`)).campaigns).toMatchObject([{ recipients: 2, orders: 1, revenue: 20 }]);
    expect((await t.request('GET', `/api/2.0/segments/${gold}/revenue`, { token: stranger.token })).statusCode).toBe(404);
  });

  it('has no segment lines for a campaign to groups only', async () => {
    const group = (await api('POST', '/contact-groups/', { name: 'Groups only' })).uuid;
    await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts: [{ phone_number: number(8) }] });
    const template = (await api('POST', '/templates/', { name: 'Plain', body: 'Plain', sender: 'Acme' })).uuid;
    const plain = (
      await api('POST', '/campaigns/', {
        name: 'Groups only',
        sender: 'Acme',
        scheduled_send_date: '2026-06-01 10:20:05',
        expiry_date: '2026-06-02 10:00:00',
        included_contact_groups: [group],
        template_uuid: template,
      })
    ).uuid;
    const summary = await api('GET', `/campaigns/${plain}/summary`);
    expect(summary).toMatchObject({ recipients: 1, currency: 'GBP', orders: 0, revenue: 0 });
    expect(summary).not.toHaveProperty('segments');
  });

  it('leaves the segments out of the summary of a team with no conversion', async () => {
    const group = (await api('POST', '/contact-groups/', { name: 'Plain' }, stranger)).uuid;
    await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts: [{ phone_number: number(7) }] }, stranger);
    const segment = (await api('POST', '/segments/', { name: 'Any', match: 'all', conditions: [{ type: 'group', op: 'in', group_uuid: group }] }, stranger))
      .uuid;
    const template = (await api('POST', '/templates/', { name: 'Hi', body: 'Hi', sender: 'Acme' }, stranger)).uuid;
    const theirs = (
      await api(
        'POST',
        '/campaigns/',
        {
          name: 'No orders',
          sender: 'Acme',
          scheduled_send_date: '2026-06-01 10:20:05',
          expiry_date: '2026-06-02 10:00:00',
          included_contact_groups: [],
          included_segments: [segment],
          template_uuid: template,
        },
        stranger,
      )
    ).uuid;
    clock.set('2026-06-01T09:20:10Z');
    await createEngineStore(t.database.db).startDue(clock.now());
    const summary = await api('GET', `/campaigns/${theirs}/summary`, undefined, stranger);
    expect(summary.recipients).toBe(1);
    expect(summary).not.toHaveProperty('segments');
    expect(summary).not.toHaveProperty('revenue');
    // Its segment's page still lists the campaign, with nothing credited.
    expect((await api('GET', `/segments/${segment}/revenue`, undefined, stranger)).campaigns).toMatchObject([
      { campaign_uuid: theirs, recipients: 1, orders: 0, revenue: 0, revenue_per_recipient: 0 },
    ]);
  });
});
