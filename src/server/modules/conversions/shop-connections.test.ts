/**
 * Shop connections and their receivers (issue 35, point 3): an admin connects a Shopify or
 * WooCommerce shop; its `webhook_url` (`{PUBLIC_URL}/hooks/shop/{uuid}`) takes the shop's new-order
 * webhooks over a real socket, sent by fakes of each platform that follow its documentation
 * (testing/shop-fakes). A signed order is recorded as a conversion of the connection's team and
 * credited like any other; a forged or unsigned call is 401 and writes nothing; a redelivery records
 * one conversion; other topics, and WooCommerce's unsigned ping, are 200 and write nothing.
 *
 * Seen red: with the signature check in shop-connections.service.ts skipped (`false &&` before
 * it), the forged Shopify and WooCommerce calls answered 200 and recorded orders; with the HMAC computed over the body re-serialised from its parse instead of the raw bytes,
 * Shopify's genuine order (its 64-bit id changes when parsed) answered 401.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaignSentTo, click } from '../../testing/conversion-fixtures';
import { freePort } from '../../testing/processes';
import { hmacBase64 } from '../../testing/shop-fakes/shop-call';
import { sendShopifyOrder, shopifyOrderBody, type ShopifyOrder } from '../../testing/shop-fakes/shopify-fake';
import { sendWooCommerceOrder, sendWooCommercePing } from '../../testing/shop-fakes/woocommerce-fake';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let admin: TestUser;
let editor: { token: string };
let other: TestUser;

const SHOPIFY_SECRET = 'shpss_5c0ffee5c0ffee5c0ffee5c0ffee5c0f';
const WOO_SECRET = 'woo-webhook-secret-2026';

const api = (user: { token: string }, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  t.request(method, `/api/2.0${url}`, { token: user.token, body });
async function connect(user: { token: string }, body: Record<string, unknown>) {
  const response = await api(user, 'POST', '/shop-connections/', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { uuid: string; webhook_url: string; secret: string };
}
const conversionsOf = async (orderId: string) =>
  (
    await t.database.db.execute(
      sql`SELECT v.order_id, v.phone_number, v.value::text AS value, v.currency, v.source, v.attributed_by, c.uuid::text AS campaign
            FROM conversions v LEFT JOIN campaigns c ON c.id = v.campaign_id WHERE v.order_id = ${orderId}`,
    )
  ).rows;

let publicUrl: string;
beforeAll(async () => {
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({ PUBLIC_URL: publicUrl }, { clock });
  await t.app.listen({ port, host: '127.0.0.1' });
  admin = await t.user({ team: 'Acme Tea' });
  const made = await t.services.users.create({ email: 'editor@acme-tea.test', password: 'correct-horse-battery', teamName: 'Acme Tea', role: 'editor' });
  editor = await t.services.tokens.issue(made.userId, 'personal', 'editor');
  other = await t.user({ team: 'Bravo Tea' });
});
afterAll(() => t.close());

describe('shop connections', () => {
  it('are made, read, edited and deleted by admins only, the secret never shown', async () => {
    const shop = await connect(admin, { name: 'Acme on Shopify', platform: 'shopify', secret: SHOPIFY_SECRET });
    expect(shop).toMatchObject({ name: 'Acme on Shopify', platform: 'shopify', secret: '********5c0f', webhook_url: `${publicUrl}/hooks/shop/${shop.uuid}` });
    expect((await api(editor, 'POST', '/shop-connections/', { name: 'X', platform: 'shopify', secret: 'x' })).statusCode).toBe(403);
    expect((await api(editor, 'GET', '/shop-connections/')).statusCode).toBe(403);
    expect((await api(other, 'GET', `/shop-connections/${shop.uuid}`)).statusCode).toBe(404);
    expect((await api(admin, 'POST', '/shop-connections/', { name: 'X', platform: 'magento', secret: 'x' })).json().error.errors).toEqual({
      platform: ['The platform must be one of shopify, woocommerce.'],
    });
    // The hint sent back keeps the secret; a new one replaces it.
    const renamed = await api(admin, 'PUT', `/shop-connections/${shop.uuid}`, { name: 'Acme Tea Shopify', secret: '********5c0f' });
    expect(renamed.json().data).toMatchObject({ name: 'Acme Tea Shopify', secret: '********5c0f' });
    const audit = JSON.stringify((await api(admin, 'GET', '/audit-events?per_page=100')).json());
    expect(audit).toContain('createShopConnection');
    expect(audit).not.toContain(SHOPIFY_SECRET);
    const list = await api(admin, 'GET', '/shop-connections/');
    expect(list.json().data.map((row: { uuid: string }) => row.uuid)).toContain(shop.uuid);
    expect(JSON.stringify(list.json())).not.toContain(SHOPIFY_SECRET);
    expect((await api(admin, 'DELETE', `/shop-connections/${shop.uuid}`)).statusCode).toBe(204);
    expect((await sendShopifyOrder(shop.webhook_url, SHOPIFY_SECRET, order('1'))).status).toBe(404);
  });
});

const order = (id: string, overrides: Partial<ShopifyOrder> = {}): ShopifyOrder => ({
  id: `8209829119461545${id.padStart(2, '0')}`,
  orderNumber: 1000 + Number(id),
  totalPrice: '42.50',
  currency: 'GBP',
  createdAt: '2026-06-03T09:30:00+01:00',
  phone: { billing: '+44 7700 900601' },
  ...overrides,
});

describe('the Shopify receiver', () => {
  let shop: { uuid: string; webhook_url: string };
  let campaign: { uuid: string; codes: Record<string, string> };
  beforeAll(async () => {
    shop = await connect(admin, { name: 'Acme on Shopify', platform: 'shopify', secret: SHOPIFY_SECRET });
    const sent = new Date('2026-06-02T09:00:00Z');
    clock.set(sent);
    campaign = await campaignSentTo(t, admin, { name: 'Teatime', numbers: ['447700900601', '447700900602'], deliveredAt: sent });
    clock.set('2026-06-02T12:00:00Z');
    await click(t, campaign.codes['447700900601']!);
    clock.set('2026-06-03T09:45:00Z');
  });

  it('records a signed order as a conversion of the team, credited to the click, once however often it is delivered', async () => {
    const first = await sendShopifyOrder(shop.webhook_url, SHOPIFY_SECRET, order('11'));
    expect(first.status, first.body).toBe(200);
    expect(await conversionsOf('820982911946154511')).toEqual([
      {
        order_id: '820982911946154511',
        phone_number: '447700900601',
        value: '42.50',
        currency: 'GBP',
        source: 'shopify',
        attributed_by: 'click',
        campaign: campaign.uuid,
      },
    ]);
    // Shopify retries a delivery it saw no answer to: the same order again.
    const again = await sendShopifyOrder(shop.webhook_url, SHOPIFY_SECRET, order('11', { totalPrice: '99.00' }));
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body).conversion_uuid).toBe(JSON.parse(first.body).conversion_uuid);
    expect(await conversionsOf('820982911946154511')).toHaveLength(1);
    expect((await api(admin, 'GET', `/shop-connections/${shop.uuid}`)).json().data.last_order_at).toBe('2026-06-03 10:45:00');
  });

  it('finds the phone on the customer or the shipping address, and records an order without one uncredited', async () => {
    expect((await sendShopifyOrder(shop.webhook_url, SHOPIFY_SECRET, order('12', { phone: { customer: '07700 900602' } }))).status).toBe(200);
    expect(await conversionsOf('820982911946154512')).toMatchObject([{ phone_number: '447700900602', attributed_by: 'view', campaign: campaign.uuid }]);
    expect((await sendShopifyOrder(shop.webhook_url, SHOPIFY_SECRET, order('13', { phone: { shipping: '+447700900601' } }))).status).toBe(200);
    expect(await conversionsOf('820982911946154513')).toMatchObject([{ phone_number: '447700900601', attributed_by: 'click' }]);
    expect((await sendShopifyOrder(shop.webhook_url, SHOPIFY_SECRET, order('14', { phone: {} }))).status).toBe(200);
    expect(await conversionsOf('820982911946154514')).toMatchObject([{ phone_number: null, attributed_by: null, campaign: null }]);
  });

  it('refuses a forged or unsigned order with 401 and writes nothing', async () => {
    const forged = await sendShopifyOrder(shop.webhook_url, 'not-the-secret', order('21'));
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.body).error.message).toBe("The X-Shopify-Hmac-Sha256 signature does not match this connection's secret.");
    expect((await sendShopifyOrder(shop.webhook_url, SHOPIFY_SECRET, order('22'), { hmac: null })).status).toBe(401);
    expect((await sendShopifyOrder(shop.webhook_url, SHOPIFY_SECRET, order('23'), { hmac: 'bm90IGEgc2lnbmF0dXJl' })).status).toBe(401);
    // Signed, then changed on the way: the signature covers the bytes.
    const genuine = shopifyOrderBody(order('24'));
    const tampered = Buffer.from(genuine.toString('utf8').replaceAll('42.50', '0.01'));
    expect((await sendShopifyOrder(shop.webhook_url, SHOPIFY_SECRET, order('24'), { hmac: hmacBase64(genuine, SHOPIFY_SECRET), body: tampered })).status).toBe(
      401,
    );
    // Another team's connection's secret is not this one's.
    const theirs = await connect(other, { name: 'Bravo shop', platform: 'shopify', secret: 'bravo-secret-0000' });
    expect((await sendShopifyOrder(shop.webhook_url, 'bravo-secret-0000', order('25'))).status).toBe(401);
    expect((await sendShopifyOrder(theirs.webhook_url, SHOPIFY_SECRET, order('25'))).status).toBe(401);
    const { rows } = await t.database.db.execute(sql`SELECT order_id FROM conversions WHERE order_id LIKE '82098291194615452%'`);
    expect(rows).toEqual([]);
  });

  it('answers 200 to another topic and writes nothing; 422 to a signed order it cannot read', async () => {
    expect((await sendShopifyOrder(shop.webhook_url, SHOPIFY_SECRET, order('31'), { topic: 'orders/updated' })).status).toBe(200);
    expect(await conversionsOf('820982911946154531')).toEqual([]);
    const unreadable = await sendShopifyOrder(shop.webhook_url, SHOPIFY_SECRET, order('32', { currency: 'pounds' }));
    expect(unreadable.status).toBe(422);
    expect(JSON.parse(unreadable.body).error.errors).toEqual({ currency: ['The currency must be a three-letter ISO 4217 code in capitals, such as EUR.'] });
    expect(await conversionsOf('820982911946154532')).toEqual([]);
  });
});

describe('the WooCommerce receiver', () => {
  let shop: { uuid: string; webhook_url: string };
  beforeAll(async () => {
    shop = await connect(admin, { name: 'Acme on WooCommerce', platform: 'woocommerce', secret: WOO_SECRET });
    clock.set('2026-06-03T09:45:00Z');
  });
  const wooOrder = (id: number) => ({ id, total: '18.00', currency: 'EUR', dateCreatedGmt: '2026-06-03T08:00:00', billingPhone: '07700 900602' });

  it('answers the ping, records a signed order once, and refuses a forged one with 401', async () => {
    expect((await sendWooCommercePing(shop.webhook_url)).status).toBe(200);
    const recorded = await sendWooCommerceOrder(shop.webhook_url, WOO_SECRET, wooOrder(4750));
    expect(recorded.status, recorded.body).toBe(200);
    // The delivery to …602 the day before is within the view window (24 h) of 08:00 UTC.
    expect(await conversionsOf('4750')).toMatchObject([
      { phone_number: '447700900602', value: '18.00', currency: 'EUR', source: 'woocommerce', attributed_by: 'view' },
    ]);
    expect((await sendWooCommerceOrder(shop.webhook_url, WOO_SECRET, wooOrder(4750))).status).toBe(200);
    expect(await conversionsOf('4750')).toHaveLength(1);
    expect((await sendWooCommerceOrder(shop.webhook_url, 'guessed', wooOrder(4751))).status).toBe(401);
    expect((await sendWooCommerceOrder(shop.webhook_url, WOO_SECRET, wooOrder(4752), { signature: null })).status).toBe(401);
    expect((await sendWooCommerceOrder(shop.webhook_url, WOO_SECRET, wooOrder(4753), { topic: 'order.updated' })).status).toBe(200);
    const { rows } = await t.database.db.execute(sql`SELECT order_id FROM conversions WHERE order_id IN ('4751', '4752', '4753')`);
    expect(rows).toEqual([]);
  });
});
