import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConversionInputSchema, type ShopPlatform } from '../../../shared/contract';
import type { CheckoutConsent } from '../consent/checkout-consent';
import type { ShopOrder } from './conversions.service';

/**
 * What each shop platform's order webhook looks like to Herald: the headers carrying its signature
 * and topic, the topic that is a new order, and where the order's fields are. Shopify:
 * https://shopify.dev/docs/apps/build/webhooks (HMAC) and the `orders/create` payload; WooCommerce:
 * https://woocommerce.github.io/woocommerce-rest-api-docs/#webhooks.
 */
export const SHOP_WEBHOOKS: Record<ShopPlatform, { signature: string; topic: string; orderTopic: string }> = {
  shopify: { signature: 'x-shopify-hmac-sha256', topic: 'x-shopify-topic', orderTopic: 'orders/create' },
  woocommerce: { signature: 'x-wc-webhook-signature', topic: 'x-wc-webhook-topic', orderTopic: 'order.created' },
};

/**
 * Whether `signature` is the base64 HMAC-SHA256 of the raw body with the secret (what both platforms
 * send), compared in constant time. The exact bytes received are signed: the body is never parsed
 * and re-serialised before the check.
 */
export function signatureHolds(rawBody: Buffer, secret: string, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  const given = Buffer.from(signature.trim(), 'base64');
  // A signature of another length is no match; timingSafeEqual would throw on it.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** WooCommerce's first delivery when a webhook is saved: `webhook_id=…` as form data, unsigned, to check the address answers. */
export const isWooCommercePing = (rawBody: Buffer): boolean => /^webhook_id=\d+$/.test(rawBody.toString('utf8').trim());

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : undefined;

/**
 * The buyer's SMS marketing consent an order carries, and the number it is for. Shopify keeps it on
 * the customer (`customer.sms_marketing_consent`: `state` subscribed, not_subscribed, pending,
 * unsubscribed or redacted; `opt_in_level` single_opt_in, confirmed_opt_in or unknown;
 * `consent_updated_at`; `consent_collected_from` SHOPIFY or OTHER), for the customer's phone (else
 * the order's). Core WooCommerce asks no SMS consent at checkout and its order has no field for one
 * (plugins keep theirs in `meta_data` under names of their own), so its orders carry none.
 */
function smsConsentOf(body: Json, orderPhone: string | undefined): { consent: CheckoutConsent; phoneNumber: string | null } | null {
  const customer = isObject(body.customer) ? body.customer : undefined;
  const given = customer?.sms_marketing_consent;
  if (!isObject(given)) return null;
  const state = text(given.state);
  if (!state) return null;
  const said: Record<string, string | null> = {};
  for (const name of ['state', 'opt_in_level', 'consent_updated_at', 'consent_collected_from']) said[name] = text(given[name]) ?? null;
  const updated = said.consent_updated_at ? new Date(said.consent_updated_at) : null;
  return {
    consent: {
      state,
      optInLevel: said.opt_in_level ?? null,
      updatedAt: updated && !Number.isNaN(updated.getTime()) ? updated : null,
      collectedFrom: said.consent_collected_from ?? null,
      said,
    },
    phoneNumber: text(customer?.phone) ?? orderPhone ?? null,
  };
}

/** An order whose fields cannot be read: what is wrong, by field (the 422's errors). */
export class UnreadableOrderError extends Error {
  constructor(readonly fields: Record<string, string[]>) {
    super('The order could not be read.');
  }
}

/**
 * The order a webhook's JSON body describes, in Herald's terms. Shopify: the order id from
 * `admin_graphql_api_id` (`gid://shopify/Order/820982911946154508`: the numeric `id` is past
 * JavaScript's exact integers), `total_price`, `currency`, the first phone of `phone`,
 * `customer.phone`, `billing_address.phone`, `shipping_address.phone`, `created_at` (with its
 * offset). WooCommerce: `number` (else `id`), `total`, `currency`, `billing.phone`,
 * `date_created_gmt` (UTC, without an offset).
 */
export function orderOf(platform: ShopPlatform, rawBody: Buffer): ShopOrder {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new UnreadableOrderError({ body: ['The order is not JSON.'] });
  }
  if (!isObject(body)) throw new UnreadableOrderError({ body: ['The order is not a JSON object.'] });
  const field = (object: unknown, name: string) => (isObject(object) ? object[name] : undefined);

  let orderId: string | undefined;
  let phone: string | undefined;
  let created: string | undefined;
  let placed: Date | undefined;
  if (platform === 'shopify') {
    orderId = /\/(\d+)$/.exec(text(body.admin_graphql_api_id) ?? '')?.[1] ?? text(body.id);
    phone = [body.phone, field(body.customer, 'phone'), field(body.billing_address, 'phone'), field(body.shipping_address, 'phone')]
      .map(text)
      .find((value) => value !== undefined);
    created = text(body.created_at);
    placed = created ? new Date(created) : undefined;
  } else {
    orderId = text(body.number) ?? text(body.id);
    phone = text(field(body.billing, 'phone'));
    created = text(body.date_created_gmt);
    // date_created_gmt is UTC written without an offset (`2026-06-01T09:00:00`).
    placed = created ? new Date(/[Zz]|[+-]\d{2}:\d{2}$/.test(created) ? created : `${created}Z`) : undefined;
  }
  const totalField = platform === 'shopify' ? 'total_price' : 'total';
  const errors: Record<string, string[]> = {};
  // The API's own rules for the order id, the value and the currency, named by the platform's fields.
  const checked = ConversionInputSchema.pick({ order_id: true, value: true, currency: true }).safeParse({
    order_id: orderId ?? '',
    value: body[totalField],
    currency: body.currency,
  });
  if (!checked.success)
    for (const issue of checked.error.issues) {
      const name = { order_id: 'id', value: totalField, currency: 'currency' }[String(issue.path[0])] ?? 'body';
      (errors[name] ??= []).push(issue.message);
    }
  if (!placed || Number.isNaN(placed.getTime()))
    errors[platform === 'shopify' ? 'created_at' : 'date_created_gmt'] = ['The order has no readable creation time.'];
  if (!checked.success || Object.keys(errors).length > 0) throw new UnreadableOrderError(errors);
  return {
    orderId: checked.data.order_id,
    phoneNumber: phone ?? null,
    value: checked.data.value,
    currency: checked.data.currency,
    occurredAt: placed!,
    smsMarketing: platform === 'shopify' ? smsConsentOf(body, phone) : null,
  };
}
