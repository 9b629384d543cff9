import type { Conversion, ConversionInput, ConversionListQuery, ConversionSource } from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { NotFoundError, ValidationError } from '../../lib/errors';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import { selfLinks } from '../../lib/presenters';
import { formatTimestamp, parseTimestamp, type Clock } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { CheckoutConsent } from '../consent/checkout-consent';
import type { ConversionRow, ConversionsRepository } from './conversions.repository';

/** An order time a little ahead of Herald's clock is the caller's clock running fast, not a future order. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** An order as a shop's webhook reports it, read by shop-orders.ts. */
export type ShopOrder = {
  orderId: string;
  phoneNumber: string | null;
  value: number;
  currency: string;
  occurredAt: Date;
  /** The buyer's SMS marketing consent the order carries, and the number it is for (shop-orders.ts). */
  smsMarketing: { consent: CheckoutConsent; phoneNumber: string | null } | null;
};

export function createConversionsService(deps: {
  db: Db;
  /** Each conversion a member records is in the audit trail, in its own transaction. */
  audit: Pick<AuditTrail, 'record'>;
  conversions: ConversionsRepository;
  /** The country a team's national numbers are read in. */
  countryOf: (teamId: number) => Promise<string>;
  clock: Clock;
  config: { publicUrl: string; appTimezone: string };
}) {
  const present = (row: ConversionRow): Conversion => ({
    uuid: row.uuid,
    order_id: row.orderId,
    phone_number: row.phoneNumber,
    click_id: row.clickCode,
    value: row.value,
    currency: row.currency,
    occurred_at: formatTimestamp(row.occurredAt, deps.config.appTimezone),
    source: row.source,
    campaign_uuid: row.campaignUuid,
    attributed_by: row.attributedBy,
    links: selfLinks(deps.config.publicUrl, 'conversions', row.uuid),
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
  });

  /**
   * Records an order once per team and order id, credited as the team's windows say at that moment
   * (db/revenue.ts): `created` false when the team already had the order, which is then answered as
   * it was recorded, unchanged (whatever this call says of it).
   */
  async function recordIn(
    tx: Tx,
    teamId: number,
    order: { orderId: string; phoneNumber: string | null; clickCode: string | null; value: number; currency: string; occurredAt: Date },
    source: ConversionSource,
    shopConnectionId: number | null,
  ): Promise<{ row: ConversionRow; created: boolean }> {
    const existing = await deps.conversions.findByOrder(tx, teamId, order.orderId);
    if (existing) return { row: existing, created: false };
    const windows = await deps.conversions.windowsOf(tx, teamId);
    const credit = order.phoneNumber ? await deps.conversions.attribution(tx, teamId, order.phoneNumber, order.occurredAt, windows) : undefined;
    const inserted = await deps.conversions.insert(tx, { teamId, ...order, source, shopConnectionId, credit, createdAt: deps.clock.now() });
    if (inserted) return { row: inserted, created: true };
    // Another request recorded the order meanwhile (the unique key refused this one): its row is the answer.
    const raced = await deps.conversions.findByOrder(tx, teamId, order.orderId);
    if (!raced) throw new Error(`conversion ${order.orderId} neither inserted nor found`);
    return { row: raced, created: false };
  }

  /** `phone_number` read in the team's country, or `click_id` resolved to the number of its message (the team's own links only). */
  async function numberOf(teamId: number, input: Pick<ConversionInput, 'phone_number' | 'click_id'>): Promise<string> {
    if (input.phone_number === undefined && input.click_id === undefined)
      throw new ValidationError({ phone_number: ['The phone number field is required when click id is not present.'] });
    let number: string | undefined;
    if (input.phone_number !== undefined) {
      const normalized = normalizePhoneNumber(input.phone_number, await deps.countryOf(teamId));
      if (!normalized.ok) throw ValidationError.field('phone_number', `The phone number ${normalized.reason}.`);
      number = normalized.number;
    }
    if (input.click_id !== undefined) {
      const clicked = await deps.conversions.numberOfClick(deps.db, teamId, input.click_id);
      if (!clicked) throw ValidationError.field('click_id', 'The click id is not a short link of this team’s campaigns.');
      if (number !== undefined && number !== clicked)
        throw ValidationError.field('click_id', 'The click id’s message went to another number than the phone number.');
      number = clicked;
    }
    return number!;
  }

  return {
    present,

    /**
     * `POST /conversions`: 201 and the new conversion, or, for an order id the team already has, 200
     * and that conversion as it was recorded (nothing changes, even if this body says otherwise).
     */
    async record(auth: AuthContext, input: ConversionInput): Promise<{ conversion: Conversion; created: boolean }> {
      const now = deps.clock.now();
      let occurredAt = now;
      if (input.occurred_at !== undefined) {
        const parsed = parseTimestamp(input.occurred_at, deps.config.appTimezone);
        if (!parsed) throw ValidationError.field('occurred_at', 'The occurred at is not a valid date and time.');
        if (parsed.getTime() > now.getTime() + CLOCK_SKEW_MS) throw ValidationError.field('occurred_at', 'The occurred at may not be in the future.');
        occurredAt = parsed;
      }
      const phoneNumber = await numberOf(auth.teamId, input);
      return deps.db.transaction(async (tx) => {
        const { row, created } = await recordIn(
          tx,
          auth.teamId,
          { orderId: input.order_id, phoneNumber, clickCode: input.click_id ?? null, value: input.value, currency: input.currency, occurredAt },
          'api',
          null,
        );
        const conversion = present(row);
        // A repeat changed nothing; it is kept as such (`….repeated`), as a refused edit is.
        if (created) await deps.audit.record(tx, auth, { resourceType: 'conversion', resourceUuid: row.uuid, after: conversion, created: true });
        else
          await deps.audit.record(tx, auth, {
            resourceType: 'conversion',
            resourceUuid: row.uuid,
            changes: null,
            action: `${auth.request?.operation ?? 'createConversion'}.repeated`,
          });
        return { conversion, created };
      });
    },

    /**
     * An order a shop's signed webhook reported, in the caller's transaction, as its connection's team's (not a member's change,
     * so not in the audit trail, like a provider's callback; its `source` names the platform). A
     * number the order does not carry, or that cannot be read, leaves the conversion uncredited.
     */
    async recordShopOrder(tx: Tx, shop: { id: number; teamId: number; platform: 'shopify' | 'woocommerce' }, order: ShopOrder) {
      let phoneNumber: string | null = null;
      if (order.phoneNumber) {
        const normalized = normalizePhoneNumber(order.phoneNumber, await deps.countryOf(shop.teamId));
        if (normalized.ok) phoneNumber = normalized.number;
      }
      const { row, created } = await recordIn(
        tx,
        shop.teamId,
        { orderId: order.orderId, phoneNumber, clickCode: null, value: order.value, currency: order.currency, occurredAt: order.occurredAt },
        shop.platform,
        shop.id,
      );
      return { conversion: present(row), created };
    },

    async show(auth: AuthContext, uuid: string): Promise<Conversion> {
      const row = await deps.conversions.find(auth.teamId, uuid);
      if (!row) throw new NotFoundError();
      return present(row);
    },

    /** Newest order first; a `campaign_uuid` that is not one of the team's campaigns is refused (422). */
    async list(auth: AuthContext, query: Pick<ConversionListQuery, 'campaign_uuid' | 'phone_number'>, window: PageWindow) {
      const filters: { campaignId?: number; phoneNumber?: string } = {};
      if (query.campaign_uuid !== undefined) {
        const campaignId = await deps.conversions.campaignIdOf(auth.teamId, query.campaign_uuid);
        if (campaignId === undefined) throw ValidationError.field('campaign_uuid', 'The selected campaign uuid is invalid.');
        filters.campaignId = campaignId;
      }
      if (query.phone_number !== undefined) {
        const normalized = normalizePhoneNumber(query.phone_number, await deps.countryOf(auth.teamId));
        if (!normalized.ok) throw ValidationError.field('phone_number', `The phone number ${normalized.reason}.`);
        filters.phoneNumber = normalized.number;
      }
      const { rows, total } = await deps.conversions.list(auth.teamId, filters, window);
      return { items: rows.map(present), total };
    },
  };
}
export type ConversionsService = ReturnType<typeof createConversionsService>;
