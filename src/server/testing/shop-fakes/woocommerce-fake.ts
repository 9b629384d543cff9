import { randomBytes } from 'node:crypto';
import { hmacBase64, postRaw, type ShopCallAnswer } from './shop-call';

/**
 * A WooCommerce store sending its `order.created` webhook, as the WooCommerce REST API documents it:
 * https://woocommerce.github.io/woocommerce-rest-api-docs/#webhooks (webhooks, topics, delivery and
 * the secret) and https://woocommerce.github.io/woocommerce-rest-api-docs/#order-properties (the
 * order). Each delivery is a POST of the order as JSON with `X-WC-Webhook-Source`,
 * `X-WC-Webhook-Topic` (`order.created`), `X-WC-Webhook-Resource`, `X-WC-Webhook-Event`,
 * `X-WC-Webhook-Signature` (the base64 HMAC-SHA256 of the raw body with the webhook's secret),
 * `X-WC-Webhook-ID` and `X-WC-Webhook-Delivery-ID`. When a webhook is saved, WooCommerce first posts
 * a ping: the form data `webhook_id=…`, unsigned (`sendWooCommercePing`).
 */
export type WooCommerceOrder = { id: number; number?: string; total: string; currency: string; dateCreatedGmt: string; billingPhone?: string };

export function wooCommerceOrderBody(order: WooCommerceOrder): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: order.id,
      parent_id: 0,
      number: order.number ?? String(order.id),
      order_key: `wc_order_${randomBytes(6).toString('hex')}`,
      created_via: 'checkout',
      version: '9.4.2',
      status: 'processing',
      currency: order.currency,
      date_created: order.dateCreatedGmt,
      date_created_gmt: order.dateCreatedGmt,
      date_modified: order.dateCreatedGmt,
      date_modified_gmt: order.dateCreatedGmt,
      discount_total: '0.00',
      shipping_total: '0.00',
      total: order.total,
      total_tax: '0.00',
      prices_include_tax: false,
      customer_id: 12,
      billing: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        address_1: '1 High Street',
        city: 'London',
        postcode: 'N1 9GU',
        country: 'GB',
        email: 'ada@example.com',
        phone: order.billingPhone ?? '',
      },
      shipping: { first_name: 'Ada', last_name: 'Lovelace', address_1: '1 High Street', city: 'London', postcode: 'N1 9GU', country: 'GB' },
      payment_method: 'bacs',
      line_items: [{ id: 315, name: 'Tea towel', product_id: 93, quantity: 1, total: order.total, price: Number(order.total) }],
    }),
    'utf8',
  );
}

const WEBHOOK_ID = '3';

/** Posts `order` to `url` signed with `secret` (or the given `signature`, or none: a forged or unsigned call). */
export function sendWooCommerceOrder(
  url: string,
  secret: string,
  order: WooCommerceOrder,
  options: { topic?: string; signature?: string | null } = {},
): Promise<ShopCallAnswer> {
  const body = wooCommerceOrderBody(order);
  const topic = options.topic ?? 'order.created';
  const [resource, event] = topic.split('.');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'WooCommerce/9.4.2 Hookshot (WordPress/6.7)',
    'x-wc-webhook-source': 'https://tea.example.com/',
    'x-wc-webhook-topic': topic,
    'x-wc-webhook-resource': resource ?? 'order',
    'x-wc-webhook-event': event ?? 'created',
    'x-wc-webhook-id': WEBHOOK_ID,
    'x-wc-webhook-delivery-id': randomBytes(16).toString('hex'),
  };
  const signature = options.signature === undefined ? hmacBase64(body, secret) : options.signature;
  if (signature !== null) headers['x-wc-webhook-signature'] = signature;
  return postRaw(url, body, headers);
}

/** The ping WooCommerce posts when the webhook is saved, to check the address answers. */
export const sendWooCommercePing = (url: string) =>
  postRaw(url, Buffer.from(`webhook_id=${WEBHOOK_ID}`), {
    'content-type': 'application/x-www-form-urlencoded',
    'user-agent': 'WooCommerce/9.4.2 Hookshot (WordPress/6.7)',
  });
