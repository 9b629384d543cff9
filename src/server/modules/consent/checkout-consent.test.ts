/**
 * Consent from shop checkouts (issue 36, point 3, source `checkout`): a Shopify `orders/create`
 * webhook whose customer subscribed to SMS marketing, sent by the Shopify fake over a real socket,
 * signed, records a `checkout` consent with the order as evidence; under double opt-in a single
 * opt-in must still confirm by YES while Shopify's confirmed opt-in counts; an opt-out by STOP is
 * never lifted by an order, and only a consent newer than the STOP asks the number to confirm.
 * WooCommerce's core order carries no SMS consent, so it records none.
 *
 * Seen red: with the opt-out check skipped in checkout-consent.ts (`optedOutSince` taken as
 * undefined), "an opt-out stands" went red (a checkout consent was recorded for the number that had
 * texted STOP after it); with the double opt-in ignored (`mustConfirm` false), the single opt-in under
 * double opt-in recorded its consent at once and queued no confirmation.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../testing/processes';
import { sendShopifyOrder, type ShopifyOrder } from '../../testing/shop-fakes/shopify-fake';
import { sendWooCommerceOrder } from '../../testing/shop-fakes/woocommerce-fake';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const clock = createTestClock('2026-11-20T10:00:00Z');
const SECRET = 'shpss_c0ffeec0ffeec0ffeec0ffeec0ffee12';
const WOO_SECRET = 'woo-checkout-secret-2026';
let t: TestApp;
let owner: TestUser;
let shopify: { uuid: string; webhook_url: string };

const call = (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => t.request(method, `/api/2.0${path}`, { token: owner.token, body });
const text = async (from: string, body: string) => {
  const response = await call('POST', '/inbound-messages/', { from, body });
  expect(response.statusCode, response.body).toBe(201);
};
const consentOf = async (number: string) => (await call('GET', `/contacts/${number}/consent`)).json().data;
const confirmations = async (number: string) =>
  Number((await t.database.pool.query(`SELECT count(*) AS n FROM outbound_replies WHERE to_number = $1 AND kind = 'confirmation'`, [number])).rows[0].n);
const optedOut = async (number: string) =>
  (
    await t.database.db.execute(sql`SELECT 1 FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id
                                    WHERE g.name = 'default_optouts' AND c.phone_number = ${number}`)
  ).rows.length > 0;
let orders = 4100;
const order = (phone: string, consent?: ShopifyOrder['smsMarketingConsent']): ShopifyOrder => ({
  id: `82098291194615${orders}`,
  orderNumber: orders++,
  totalPrice: '24.00',
  currency: 'GBP',
  createdAt: clock.now().toISOString(),
  phone: { customer: phone },
  ...(consent ? { smsMarketingConsent: consent } : {}),
});
const subscribed = (at: string | null, level: 'single_opt_in' | 'confirmed_opt_in' = 'single_opt_in') =>
  ({ state: 'subscribed', opt_in_level: level, consent_updated_at: at, consent_collected_from: 'SHOPIFY' }) as const;
async function deliver(o: ShopifyOrder) {
  const answer = await sendShopifyOrder(shopify.webhook_url, SECRET, o);
  expect(answer.status, answer.body).toBe(200);
  return JSON.parse(answer.body) as { consent?: string };
}
const doubleOptIn = async (on: boolean) => expect((await call('PUT', '/team/settings', { double_opt_in: on })).statusCode).toBe(200);

beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp({ PUBLIC_URL: `http://127.0.0.1:${port}` }, { clock });
  await t.app.listen({ port, host: '127.0.0.1' });
  owner = await t.user({ team: 'Acme Tea' });
  const made = await call('POST', '/shop-connections/', { name: 'Acme on Shopify', platform: 'shopify', secret: SECRET });
  expect(made.statusCode, made.body).toBe(201);
  shopify = made.json().data;
});
afterAll(() => t.close());

describe('a Shopify checkout', () => {
  it('records a checkout consent with the order as evidence, once per agreement however many orders repeat it', async () => {
    const first = order('+44 7700 900601', subscribed('2026-11-20T09:58:00Z'));
    expect(await deliver(first)).toMatchObject({ consent: 'recorded' });
    expect(await consentOf('447700900601')).toEqual([
      {
        uuid: expect.any(String),
        source: 'checkout',
        at: '2026-11-20 09:58:00',
        text_shown: '',
        evidence: {
          shop_connection_uuid: shopify.uuid,
          platform: 'shopify',
          order_id: first.id,
          sms_marketing_consent: {
            state: 'subscribed',
            opt_in_level: 'single_opt_in',
            consent_updated_at: '2026-11-20T09:58:00Z',
            consent_collected_from: 'SHOPIFY',
          },
        },
      },
    ]);
    // Shopify delivers again: the order is known, nothing more.
    expect(await deliver(first)).not.toHaveProperty('consent');
    // The customer's next order carries the same consent: no second record.
    clock.advance(3_600_000);
    expect(await deliver(order('07700 900601', subscribed('2026-11-20T09:58:00Z')))).toMatchObject({ consent: 'already_recorded' });
    expect(await consentOf('447700900601')).toHaveLength(1);
    expect(await confirmations('447700900601')).toBe(0);
  });

  it('records nothing for a buyer who did not subscribe, nor from a WooCommerce order (its core order has no SMS consent)', async () => {
    expect(await deliver(order('07700 900602', { ...subscribed(null), state: 'not_subscribed', opt_in_level: null }))).toMatchObject({ consent: 'none' });
    expect(await deliver(order('07700 900602', { ...subscribed(null), state: 'pending' }))).toMatchObject({ consent: 'none' });
    expect(await deliver(order('07700 900602'))).toMatchObject({ consent: 'none' });
    expect((await call('GET', '/contacts/447700900602/consent')).statusCode).toBe(404);
    const woo = (await call('POST', '/shop-connections/', { name: 'Acme on WooCommerce', platform: 'woocommerce', secret: WOO_SECRET })).json().data;
    const answer = await sendWooCommerceOrder(woo.webhook_url, WOO_SECRET, {
      id: 77,
      total: '10.00',
      currency: 'GBP',
      dateCreatedGmt: '2026-11-20T10:30:00',
      billingPhone: '07700 900603',
    });
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ consent: 'none' });
    expect((await call('GET', '/contacts/447700900603/consent')).statusCode).toBe(404);
  });

  it('under double opt-in: a single opt-in must confirm by YES, a confirmed opt-in counts at once', async () => {
    await doubleOptIn(true);
    expect(await deliver(order('07700 900604', subscribed('2026-11-20T11:00:00Z')))).toMatchObject({ consent: 'confirmation_requested' });
    expect(await consentOf('447700900604')).toEqual([]);
    expect(await confirmations('447700900604')).toBe(1);
    expect((await call('GET', '/contacts/447700900604')).json().data.opt_in_request).toMatchObject({ state: 'pending', source: 'checkout' });
    clock.advance(60_000);
    await text('07700 900604', 'yes');
    const [record] = await consentOf('447700900604');
    expect(record).toMatchObject({ source: 'checkout', evidence: { platform: 'shopify', opt_in_request_uuid: expect.any(String) } });
    expect(record.evidence.confirmation_message_uuid).toEqual(expect.any(String));

    expect(await deliver(order('07700 900605', subscribed('2026-11-20T11:00:00Z', 'confirmed_opt_in')))).toMatchObject({ consent: 'recorded' });
    expect(await consentOf('447700900605')).toMatchObject([{ source: 'checkout' }]);
    expect(await confirmations('447700900605')).toBe(0);
    await doubleOptIn(false);
  });

  it('never lifts an opt-out: a consent older than the STOP does nothing, a newer one asks the number to confirm', async () => {
    await text('07700 900606', 'STOP');
    expect(await optedOut('447700900606')).toBe(true);
    // Given before the STOP: the STOP is the later word.
    expect(await deliver(order('07700 900606', subscribed('2026-11-19T10:00:00Z', 'confirmed_opt_in')))).toMatchObject({ consent: 'opted_out' });
    expect(await confirmations('447700900606')).toBe(0);
    // Given after it (the buyer ticked the box at a later checkout): still out until the handset says YES.
    clock.advance(3_600_000);
    expect(await deliver(order('07700 900606', subscribed(clock.now().toISOString(), 'confirmed_opt_in')))).toMatchObject({
      consent: 'confirmation_requested',
    });
    expect(await optedOut('447700900606')).toBe(true);
    expect(await consentOf('447700900606')).toEqual([]);
    expect(await confirmations('447700900606')).toBe(1);
    clock.advance(60_000);
    await text('07700 900606', 'YES');
    expect(await optedOut('447700900606')).toBe(false);
    expect(await consentOf('447700900606')).toMatchObject([{ source: 'checkout' }]);
  });
});
