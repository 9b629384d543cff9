import type { ShopConnection, ShopConnectionInput, ShopConnectionPatch, ShopPlatform } from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { Conn } from '../../db/rows';
import type { AuthContext } from '../../http/auth';
import { NotFoundError, UnauthenticatedError, ValidationError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import type { SecretBox } from '../../lib/secret-box';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { CheckoutConsentOutcome, CheckoutConsentRecorder } from '../consent/checkout-consent';
import type { ConversionsService } from './conversions.service';
import type { ShopConnectionChanges, ShopConnectionRow, ShopConnectionsRepository } from './shop-connections.repository';
import { isWooCommercePing, orderOf, SHOP_WEBHOOKS, signatureHolds, UnreadableOrderError } from './shop-orders';
import { maskedSecret } from '../../lib/masked-secret';

/** What an answer shows of the secret (lib/masked-secret.ts, as for every secret Herald keeps). */
export const secretHint = maskedSecret;

/** Where a shop posts its orders: outside the API (no token; the signature is the authentication). */
export const shopWebhookUrl = (publicUrl: string, uuid: string) => `${publicUrl}/hooks/shop/${uuid}`;

/** What a webhook call is answered. */
export type ShopWebhookAnswer = {
  statusCode: 200 | 404;
  body: { received: boolean; conversion_uuid?: string; consent?: CheckoutConsentOutcome; note?: string };
};

export function createShopConnectionsService(deps: {
  db: Db;
  audit: Pick<AuditTrail, 'record'>;
  shops: ShopConnectionsRepository;
  conversions: Pick<ConversionsService, 'recordShopOrder'>;
  secrets: SecretBox;
  /** The buyer's SMS marketing consent an order carries, recorded as a `checkout` consent (docs/consent.md). */
  checkoutConsent: CheckoutConsentRecorder;
  /** The country a team's national numbers are read in. */
  countryOf: (teamId: number) => Promise<string>;
  clock: Clock;
  config: { publicUrl: string; appTimezone: string };
}) {
  const secretOf = (row: ShopConnectionRow) => deps.secrets.open(row.secretEncrypted);
  /** The secret is shown only as a hint: it never leaves through an answer (nor, so, through the audit log, which records answers). */
  const present = (row: ShopConnectionRow): ShopConnection => ({
    uuid: row.uuid,
    name: row.name,
    platform: row.platform,
    secret: secretHint(secretOf(row)),
    webhook_url: shopWebhookUrl(deps.config.publicUrl, row.uuid),
    last_order_at: formatTimestamp(row.lastOrderAt, deps.config.appTimezone),
    links: selfLinks(deps.config.publicUrl, 'shop-connections', row.uuid),
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
    updated_at: formatTimestamp(row.updatedAt, deps.config.appTimezone),
  });

  const find = async (auth: AuthContext, uuid: string, conn: Conn = deps.db, lock = false) => {
    const row = await deps.shops.find(auth.teamId, uuid, conn, lock);
    if (!row) throw new NotFoundError();
    return row;
  };

  return {
    async list(auth: AuthContext, window: PageWindow) {
      const { rows, total } = await deps.shops.list(auth.teamId, window);
      return { items: rows.map(present), total };
    },

    show: async (auth: AuthContext, uuid: string) => present(await find(auth, uuid)),

    create(auth: AuthContext, input: ShopConnectionInput): Promise<ShopConnection> {
      return deps.db.transaction(async (tx) => {
        const row = await deps.shops.insert(tx, {
          teamId: auth.teamId,
          name: input.name,
          platform: input.platform,
          secretEncrypted: deps.secrets.seal(input.secret),
        });
        const connection = present(row);
        await deps.audit.record(tx, auth, { resourceType: 'shop_connection', resourceUuid: row.uuid, after: connection, created: true });
        return connection;
      });
    },

    /** A partial edit; a secret sent back as its hint (as read) keeps the stored one. */
    update(auth: AuthContext, uuid: string, patch: ShopConnectionPatch): Promise<ShopConnection> {
      return deps.db.transaction(async (tx) => {
        const current = await find(auth, uuid, tx, true);
        const changes: ShopConnectionChanges = {};
        if (patch.name !== undefined) changes.name = patch.name;
        if (patch.platform !== undefined) changes.platform = patch.platform;
        if (patch.secret !== undefined && patch.secret !== secretHint(secretOf(current))) changes.secretEncrypted = deps.secrets.seal(patch.secret);
        const connection = present(await deps.shops.update(tx, current.id, changes));
        await deps.audit.record(tx, auth, {
          resourceType: 'shop_connection',
          resourceUuid: uuid,
          before: present(current),
          after: connection,
          // The secret itself is never recorded (the audit trail leaves `secret` out): only that it changed.
          ...(changes.secretEncrypted ? { notes: { secret_changed: 'yes' } } : {}),
        });
        return connection;
      });
    },

    /** The conversions it recorded stay (their `source` still names the platform). */
    async delete(auth: AuthContext, uuid: string): Promise<void> {
      await deps.db.transaction(async (tx) => {
        const current = await find(auth, uuid, tx, true);
        await deps.shops.delete(tx, current.id);
        await deps.audit.record(tx, auth, { resourceType: 'shop_connection', resourceUuid: uuid, before: present(current) });
      });
    },

    /**
     * A call to `/hooks/shop/{uuid}`: 404 for an unknown connection; 401 (nothing read, nothing
     * written) unless the body's signature, checked with the connection's secret over the exact bytes
     * received, holds; 200 for a topic that is not a new order (and WooCommerce's unsigned ping, which
     * changes nothing); else the order is recorded as a conversion of the connection's team, once per
     * order id (a redelivery answers 200 again), and 200. An order that cannot be read is 422.
     */
    async receive(uuid: string, call: { headers: Record<string, string | undefined>; rawBody: Buffer }): Promise<ShopWebhookAnswer> {
      const shop = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid) ? await deps.shops.findForWebhook(uuid) : undefined;
      if (!shop) return { statusCode: 404, body: { received: false, note: 'No shop connection has this address.' } };
      const platform: ShopPlatform = shop.platform;
      const names = SHOP_WEBHOOKS[platform];
      const signature = call.headers[names.signature];
      if (platform === 'woocommerce' && signature === undefined && isWooCommercePing(call.rawBody))
        return { statusCode: 200, body: { received: true, note: 'WooCommerce ping: the address answers.' } };
      if (!signatureHolds(call.rawBody, secretOf(shop), signature))
        throw new UnauthenticatedError(
          `The ${platform === 'shopify' ? 'X-Shopify-Hmac-Sha256' : 'X-WC-Webhook-Signature'} signature does not match this connection's secret.`,
        );
      const topic = call.headers[names.topic];
      if (topic !== names.orderTopic)
        return { statusCode: 200, body: { received: true, note: `Topic ${topic ?? '(none)'} is not ${names.orderTopic}: ignored.` } };
      let order;
      try {
        order = orderOf(platform, call.rawBody);
      } catch (error) {
        if (error instanceof UnreadableOrderError) throw new ValidationError(error.fields, `The ${platform} order could not be read.`);
        throw error;
      }
      const sms = order.smsMarketing;
      const consentNumber = sms?.phoneNumber ? normalizePhoneNumber(sms.phoneNumber, await deps.countryOf(shop.teamId)) : undefined;
      const recorded = await deps.db.transaction(async (tx) => {
        const result = await deps.conversions.recordShopOrder(tx, shop, order);
        await deps.shops.orderReceived(tx, shop.id);
        // A redelivery of an order already recorded says nothing new of consent either.
        const consent = result.created
          ? await deps.checkoutConsent.fromOrder(tx, {
              teamId: shop.teamId,
              phoneNumber: consentNumber?.ok ? consentNumber.number : null,
              consent: sms?.consent ?? null,
              shop: { uuid: shop.uuid, platform },
              orderId: order.orderId,
              placedAt: order.occurredAt,
              now: deps.clock.now(),
            })
          : undefined;
        return { ...result, consent };
      });
      return {
        statusCode: 200,
        body: { received: true, conversion_uuid: recorded.conversion.uuid, ...(recorded.consent ? { consent: recorded.consent } : {}) },
      };
    },
  };
}
export type ShopConnectionsService = ReturnType<typeof createShopConnectionsService>;
