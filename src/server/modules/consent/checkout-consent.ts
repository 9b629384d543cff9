import type { Tx } from '../../db/client';
import { SHORT_CODE_SENDER } from '../../lib/short-code';
import type { Suppressions } from '../suppressions/suppressions.service';
import type { ConsentRepository } from './consent.repository';
import type { OptInRepository } from './opt-in.repository';

/**
 * What a shop's order said of the buyer's SMS marketing consent. Shopify: the order's
 * `customer.sms_marketing_consent` (`state`, `opt_in_level`, `consent_updated_at`,
 * `consent_collected_from`), as the platform keeps it for the customer's phone. WooCommerce's core
 * order has no such field, so its orders carry none (docs/consent.md).
 */
export type CheckoutConsent = {
  state: string;
  optInLevel: string | null;
  updatedAt: Date | null;
  collectedFrom: string | null;
  /** The fields as the order wrote them: kept in the evidence, unchanged. */
  said: Record<string, string | null>;
};

/** What an order's consent did (the webhook's answer says it, for the shop's delivery log). */
export type CheckoutConsentOutcome =
  /** No consent in the order (or not `subscribed`), or no number to hold it: nothing written. */
  | 'none'
  /** A checkout consent recorded: the number is marketable (as far as consent goes: campaigns still reach it only through a group). */
  | 'recorded'
  /** The same consent (same platform time) was recorded by an earlier order: one record per agreement. */
  | 'already_recorded'
  /** The number must still confirm by YES: a request was opened and "reply YES" queued (or renewed within 10 minutes). */
  | 'confirmation_requested'
  /** The number opted out after it gave this consent (or since a time Herald cannot tell): the opt-out stands, nothing written or sent. */
  | 'opted_out';

/**
 * A shop order's SMS marketing consent as a `checkout` consent record (docs/consent.md), in the
 * transaction that records the order, with the team's suppression list locked so that a STOP and an
 * order for the same number cannot pass each other:
 *
 * - A number on the team's suppression list is never taken off it by an order: only the number's own
 *   text does that (START, or YES to a request). When the consent is newer than the number's last
 *   opt-out, the number is asked to confirm ("reply YES", the one message an opted-out number may
 *   get), and its YES records the consent and opts it back in; when it is older (or the opt-out's time
 *   is unknown), the STOP is the later word and nothing happens.
 * - Under the team's double opt-in, a number without consent must confirm by YES, unless the shop
 *   itself confirmed the subscription (Shopify's `opt_in_level` `confirmed_opt_in`: the buyer already
 *   did the intermediate step M3AAWG defines). A ticked box at checkout (`single_opt_in`, `unknown`)
 *   is typed by whoever pays, not necessarily the phone's owner: the handset's YES proves it.
 * - Otherwise the consent is recorded, `at` the platform's consent time (else the order's), never
 *   later than now.
 */
export function createCheckoutConsent(deps: {
  consent: Pick<ConsentRepository, 'record' | 'requestOptIn'> & { confirmationText: (teamName: string) => string };
  optIns: Pick<OptInRepository, 'hasConsent' | 'hasCheckoutConsent'>;
  suppressions: Pick<Suppressions, 'listOf' | 'optedOutSince'>;
  lockGroup: (tx: Tx, groupId: number) => Promise<unknown>;
  settingsOf: (teamId: number, tx: Tx) => Promise<{ name: string; doubleOptIn: boolean }>;
}) {
  return {
    async fromOrder(
      tx: Tx,
      order: {
        teamId: number;
        phoneNumber: string | null;
        consent: CheckoutConsent | null;
        shop: { uuid: string; platform: string };
        orderId: string;
        placedAt: Date;
        now: Date;
      },
    ): Promise<CheckoutConsentOutcome> {
      const { consent, phoneNumber, teamId } = order;
      if (!consent || consent.state.toLowerCase() !== 'subscribed' || phoneNumber === null) return 'none';
      const given = consent.updatedAt ?? order.placedAt;
      const at = given.getTime() > order.now.getTime() ? order.now : given;
      const evidence = {
        shop_connection_uuid: order.shop.uuid,
        platform: order.shop.platform,
        order_id: order.orderId,
        sms_marketing_consent: consent.said,
      };
      const listId = await deps.suppressions.listOf(teamId, tx);
      await deps.lockGroup(tx, listId);
      // A customer's consent travels with each of their orders: the second order repeats the first's agreement.
      if (consent.updatedAt && (await deps.optIns.hasCheckoutConsent(tx, teamId, phoneNumber, consent.said))) return 'already_recorded';
      const optedOutSince = await deps.suppressions.optedOutSince(tx, listId, teamId, phoneNumber);
      if (optedOutSince === null || (optedOutSince !== undefined && at.getTime() <= optedOutSince.getTime())) return 'opted_out';
      const settings = await deps.settingsOf(teamId, tx);
      const confirmed = consent.optInLevel?.toLowerCase() === 'confirmed_opt_in';
      const mustConfirm = optedOutSince !== undefined || (settings.doubleOptIn && !confirmed && !(await deps.optIns.hasConsent(teamId, phoneNumber, tx)));
      if (mustConfirm) {
        const text = deps.consent.confirmationText(settings.name);
        await deps.consent.requestOptIn(tx, {
          teamId,
          phoneNumber,
          source: 'checkout',
          textShown: text,
          evidence,
          now: order.now,
          sender: SHORT_CODE_SENDER,
          confirmation: text,
        });
        return 'confirmation_requested';
      }
      // Herald did not show the checkout's words (the shop did): the evidence keeps what the order said.
      await deps.consent.record(tx, { teamId, phoneNumber, source: 'checkout', at, textShown: '', evidence });
      return 'recorded';
    },
  };
}
export type CheckoutConsentRecorder = ReturnType<typeof createCheckoutConsent>;
