import { randomUUID } from 'node:crypto';
import { hmacBase64, postRaw, type ShopCallAnswer } from './shop-call';

/**
 * A Shopify store sending its `orders/create` webhook, as Shopify documents it:
 * https://shopify.dev/docs/apps/build/webhooks (about webhooks and their headers),
 * https://shopify.dev/docs/apps/build/webhooks/verify-deliveries (the HMAC), and the `orders/create`
 * payload (https://shopify.dev/docs/api/webhooks?reference=toml#list-orders/create, the REST Order
 * resource). Each delivery is a POST of the order as JSON with `X-Shopify-Topic`,
 * `X-Shopify-Hmac-Sha256` (the base64 HMAC-SHA256 of the raw body with the app's client secret),
 * `X-Shopify-Shop-Domain`, `X-Shopify-API-Version`, `X-Shopify-Webhook-Id` (the same on a redelivery),
 * `X-Shopify-Event-Id` and `X-Shopify-Triggered-At`. The body is written as Shopify writes it: the
 * numeric `id` as a bare JSON number too long for JavaScript's exact integers, money as strings.
 *
 * The buyer's SMS marketing consent rides on the order's `customer`, as the REST Customer resource
 * writes it (`sms_marketing_consent: {state, opt_in_level, consent_updated_at,
 * consent_collected_from}`, lower-case values): the fields of CustomerSmsMarketingConsentState
 * (https://shopify.dev/docs/api/admin-graphql/latest/objects/CustomerSmsMarketingConsentState), the
 * states of CustomerSmsMarketingState (subscribed, not_subscribed, pending, unsubscribed, redacted:
 * https://shopify.dev/docs/api/admin-graphql/latest/enums/CustomerSmsMarketingState), the levels of
 * CustomerMarketingOptInLevel (single_opt_in, confirmed_opt_in, unknown, after M3AAWG:
 * https://shopify.dev/docs/api/admin-graphql/latest/enums/CustomerMarketingOptInLevel) and
 * CustomerConsentCollectedFrom (SHOPIFY when the buyer ticked SMS marketing in Shopify Checkout:
 * https://shopify.dev/changelog/customer-sms-consent-collected-from-now-returns-shopify-when-the-buyer-consents-to-sms-marketing-in-shopify-checkout).
 * Without `smsMarketingConsent` the customer has none (null), as a customer who never gave a phone.
 */
export type ShopifyOrder = {
  /** The order's numeric id (written bare into the JSON, as Shopify does). */
  id: string;
  orderNumber: number;
  totalPrice: string;
  currency: string;
  createdAt: string;
  /** Where the buyer's phone is: the order's own, the customer's, the billing or the shipping address's. */
  phone?: { order?: string | null; customer?: string | null; billing?: string | null; shipping?: string | null };
  /** The customer's SMS marketing consent as Shopify keeps it. */
  smsMarketingConsent?: {
    state: 'subscribed' | 'not_subscribed' | 'pending' | 'unsubscribed' | 'redacted';
    opt_in_level: 'single_opt_in' | 'confirmed_opt_in' | 'unknown' | null;
    consent_updated_at: string | null;
    consent_collected_from: 'SHOPIFY' | 'OTHER';
  };
};

export function shopifyOrderBody(order: ShopifyOrder): Buffer {
  const address = (phone: string | null | undefined) => ({
    first_name: 'Ada',
    last_name: 'Lovelace',
    address1: '1 High Street',
    city: 'London',
    zip: 'N1 9GU',
    country: 'United Kingdom',
    country_code: 'GB',
    phone: phone ?? null,
  });
  const json = {
    id: '__ID__',
    admin_graphql_api_id: `gid://shopify/Order/${order.id}`,
    app_id: null,
    browser_ip: '203.0.113.7',
    buyer_accepts_marketing: true,
    confirmed: true,
    contact_email: 'ada@example.com',
    created_at: order.createdAt,
    currency: order.currency,
    current_total_price: order.totalPrice,
    email: 'ada@example.com',
    financial_status: 'paid',
    name: `#${order.orderNumber}`,
    order_number: order.orderNumber,
    phone: order.phone?.order ?? null,
    presentment_currency: order.currency,
    processed_at: order.createdAt,
    subtotal_price: order.totalPrice,
    total_discounts: '0.00',
    total_price: order.totalPrice,
    total_tax: '0.00',
    updated_at: order.createdAt,
    billing_address: address(order.phone?.billing),
    shipping_address: address(order.phone?.shipping),
    customer: {
      id: 115310627314,
      email: 'ada@example.com',
      phone: order.phone?.customer ?? null,
      first_name: 'Ada',
      last_name: 'Lovelace',
      sms_marketing_consent: order.smsMarketingConsent ?? null,
    },
    line_items: [{ id: 866550311766, name: 'Tea towel', price: order.totalPrice, quantity: 1, sku: 'TT-1' }],
  };
  // Shopify's ids are 64-bit integers written as JSON numbers.
  return Buffer.from(JSON.stringify(json).replace('"__ID__"', order.id), 'utf8');
}

/** Posts `order` to `url` signed with `secret` (or the given `hmac`, or none: a forged or unsigned call). */
export function sendShopifyOrder(
  url: string,
  secret: string,
  order: ShopifyOrder,
  options: { topic?: string; hmac?: string | null; webhookId?: string; body?: Buffer } = {},
): Promise<ShopCallAnswer> {
  const body = options.body ?? shopifyOrderBody(order);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Shopify-Captain-Hook',
    'x-shopify-topic': options.topic ?? 'orders/create',
    'x-shopify-shop-domain': 'acme-tea.myshopify.com',
    'x-shopify-api-version': '2025-07',
    'x-shopify-webhook-id': options.webhookId ?? randomUUID(),
    'x-shopify-event-id': randomUUID(),
    'x-shopify-triggered-at': new Date().toISOString(),
  };
  const hmac = options.hmac === undefined ? hmacBase64(body, secret) : options.hmac;
  if (hmac !== null) headers['x-shopify-hmac-sha256'] = hmac;
  return postRaw(url, body, headers);
}
