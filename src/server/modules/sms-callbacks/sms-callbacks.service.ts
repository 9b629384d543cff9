import type { Db } from '../../db/client';
import type { ReceiptRecord, ReceiptStore } from '../../engine/engine-store';
import type { ProviderAccount, ProviderAdapter, ProviderCallback, ProviderInbound, ProviderName, ProviderStatus } from '../../gateways/sms/providers/provider';
import { providerGatewayId } from '../../gateways/sms/routing/provider-ids';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import type { Clock } from '../../lib/time';
import type { ProviderCallbackResult } from '../../observability/metrics';
import type { ContactsRepository } from '../contacts/contacts.repository';
import type { InboundService } from '../inbound/inbound.service';
import type { Suppressions } from '../suppressions/suppressions.service';
import type { CallbackConnectionRow, SmsCallbacksRepository } from './sms-callbacks.repository';

/** Which of a connection's two addresses a callback came to: `status_callback_url` or `inbound_url`. */
export type CallbackKind = 'status' | 'inbound';

/** What Herald answers the provider: a 2xx only once everything the callback says is committed (a provider retries anything else). */
export type CallbackAnswer = { statusCode: number; contentType?: string; body?: string };

/** Twilio wants TwiML from an inbound webhook: an empty `<Response/>` takes the message and sends no reply (Herald's replies go through the engine). */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/** The reason the engine gives a message that expired before its final receipt (docs/engine.md): reports count these as expired. */
const EXPIRED_REASON = 'Expired';
/** A clientRef Herald sent is a message uuid: anything else is not looked up. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CALLBACK_TIMEOUT_MS = 10_000;

const providerName = (provider: string) => provider[0]!.toUpperCase() + provider.slice(1);

/**
 * The providers' callbacks at a connection's `status_callback_url` and `inbound_url` (issue 34,
 * docs/providers.md "Callbacks"). Each is verified by the connection's adapter as the provider
 * signs it (a forged or unsigned one is refused, 403, and changes nothing), then:
 * - a status settles the message it names through the engine's receipt store, which only ever
 *   moves a message still `submitted` (so a final status is never overwritten, a repeated one
 *   changes nothing, and one that beats its submission's record waits in early_receipts); the
 *   gateway id is `c<connection id>:<provider id>`, so a callback can only settle messages of the
 *   connection it came to. An opted-out status also puts the number on the team's default_optouts
 *   (source `provider`);
 * - an inbound message goes into the inbound pipeline (keywords, STOP, START, HELP) as the
 *   connection's team's, once per provider id however often it is redelivered.
 * Every callback is counted by its connection and result (herald_provider_callbacks_total). A
 * callback is the provider's, not a member's: like the SMPP gateway's receipts and deliveries, it
 * is not in the audit trail (an opt-out it causes is in the opt-out history).
 */
export function createSmsCallbacksService(deps: {
  db: Db;
  callbacks: SmsCallbacksRepository;
  /** The HTTP providers' adapters (sms-connections' ADAPTERS): a connection's callbacks are read by its provider's. */
  adapters: Readonly<Record<ProviderName, ProviderAdapter>>;
  receipts: ReceiptStore;
  inbound: Pick<InboundService, 'receiveDelivery'>;
  suppressions: Pick<Suppressions, 'listOf' | 'add'>;
  contacts: Pick<ContactsRepository, 'lockGroup'>;
  secrets: SecretBox;
  clock: Clock;
  config: { publicUrl: string };
  observe: (connection: string, result: ProviderCallbackResult) => void;
  /** A keyword webhook that failed after an inbound message was stored (called in the background). */
  onWebhookError: (error: Error) => void;
}) {
  const accountOf = (row: CallbackConnectionRow, adapter: ProviderAdapter): ProviderAccount => ({
    baseUrl: row.baseUrl ?? adapter.defaultBaseUrl,
    credentials: JSON.parse(deps.secrets.open(row.credentialsEncrypted)) as Record<string, string>,
    statusCallbackUrl: `${deps.config.publicUrl}/api/2.0/sms-connections/${row.uuid}/status`,
    timeoutMs: CALLBACK_TIMEOUT_MS,
  });

  /** An adapter's reading of a verified callback; one it cannot read at all is nothing. */
  const read = <T>(reading: () => T[]): T[] => {
    try {
      return reading();
    } catch {
      return [];
    }
  };

  /**
   * Settles what the statuses say. Returns whether any names a message (or keyword reply) Herald
   * holds. A status whose provider id Herald never saw but which carries back a message uuid
   * (Vonage's `client-ref`, on every part of a long message) settles that message when it is the
   * connection's and still submitted.
   */
  async function settle(row: CallbackConnectionRow, statuses: ProviderStatus[]): Promise<boolean> {
    const gatewayIdOf = (status: ProviderStatus) => providerGatewayId(row.id, status.providerId);
    const named = new Map((await deps.callbacks.named([...new Set(statuses.map(gatewayIdOf))])).map((m) => [m.gatewayId, m.phoneNumber]));
    const refs = [
      ...new Set(
        statuses.filter((s) => !named.has(gatewayIdOf(s)) && s.clientRef !== undefined && UUID.test(s.clientRef)).map((s) => s.clientRef!.toLowerCase()),
      ),
    ];
    const byRef = new Map(refs.length === 0 ? [] : (await deps.callbacks.submittedByClientRef(row.id, refs)).map((m) => [m.clientRef, m]));
    const target = (status: ProviderStatus): { gatewayId: string; phoneNumber: string | null } | undefined => {
      const own = gatewayIdOf(status);
      if (named.has(own)) return { gatewayId: own, phoneNumber: named.get(own)! };
      const found = status.clientRef === undefined ? undefined : byRef.get(status.clientRef.toLowerCase());
      return found && { gatewayId: found.gatewayId, phoneNumber: found.phoneNumber };
    };

    const at = deps.clock.now();
    const receipts: ReceiptRecord[] = [];
    const optedOut = new Set<string>();
    for (const status of statuses) {
      if (status.status === 'pending') continue;
      // A status of no message Herald holds (yet) is written under its own gateway id: the receipt
      // store keeps it in early_receipts until the submission it names is recorded.
      const found = target(status);
      receipts.push({
        gatewayId: found?.gatewayId ?? gatewayIdOf(status),
        status: status.status === 'delivered' ? 'delivered' : 'failed',
        reason: status.status === 'expired' ? EXPIRED_REASON : status.status === 'failed' ? (status.errorCode ?? null) : null,
        at,
      });
      if (status.optedOut && found?.phoneNumber) optedOut.add(found.phoneNumber);
    }
    await deps.receipts.markReceipts(receipts);
    if (optedOut.size > 0)
      await deps.db.transaction(async (tx) => {
        const listId = await deps.suppressions.listOf(row.teamId, tx);
        await deps.contacts.lockGroup(tx, listId);
        const actor = {
          teamId: row.teamId,
          source: 'provider' as const,
          userId: null,
          reason: `${providerName(row.provider)} reported that the recipient opted out.`,
        };
        await deps.suppressions.add(tx, listId, actor, [...optedOut], at);
      });
    return statuses.some((status) => target(status) !== undefined);
  }

  /** Each message into the inbound pipeline as the team's, keyed by the connection and the provider's id: a redelivery is stored once. */
  async function receive(row: CallbackConnectionRow, messages: ProviderInbound[]): Promise<void> {
    for (const message of messages)
      await deps.inbound.receiveDelivery(
        { from: message.from, body: message.body, source: 'gateway', teamId: row.teamId, key: providerGatewayId(row.id, message.providerId) },
        deps.onWebhookError,
      );
  }

  return {
    /**
     * One callback at a connection's address. Unknown connections, and those without an HTTP
     * provider (smpp, simulator: nothing calls them back), are 404. A disabled connection still
     * takes its callbacks: messages it carried keep reporting after it is switched off.
     */
    async take(kind: CallbackKind, connectionUuid: string, callback: ProviderCallback): Promise<CallbackAnswer> {
      const row = await deps.callbacks.findConnection(connectionUuid);
      const adapter = row ? deps.adapters[row.provider as ProviderName] : undefined;
      if (!row || !adapter) throw new NotFoundError();
      let verified = false;
      try {
        verified = adapter.verify(accountOf(row, adapter), callback, deps.clock.now());
      } catch {
        // A callback the adapter cannot even check is not signed by the account.
      }
      if (!verified) {
        deps.observe(row.uuid, 'forged');
        throw new ForbiddenError(`The callback is not signed by this connection's ${providerName(row.provider)} account.`);
      }

      const answer: CallbackAnswer =
        kind === 'inbound' && row.provider === 'twilio' ? { statusCode: 200, contentType: 'text/xml; charset=utf-8', body: EMPTY_TWIML } : { statusCode: 200 };
      // At the inbound address, inbound messages; a status there too (Telnyx's and Sinch's account-wide
      // webhooks send both to one URL). At the status address only statuses: a Twilio status callback
      // has From and To, and must never be read as a message from a handset.
      const messages = kind === 'inbound' ? read(() => adapter.inbound(callback)) : [];
      if (messages.length > 0) {
        await receive(row, messages);
        deps.observe(row.uuid, 'ok');
        return answer;
      }
      const statuses = read(() => adapter.statuses(callback));
      if (statuses.length === 0) {
        deps.observe(row.uuid, 'malformed');
        throw ValidationError.field(
          'body',
          kind === 'inbound'
            ? `The callback holds no inbound message or status that ${providerName(row.provider)} documents.`
            : `The callback holds no delivery status that ${providerName(row.provider)} documents.`,
        );
      }
      const known = await settle(row, statuses);
      deps.observe(row.uuid, known ? 'ok' : 'unknown_message');
      return answer;
    },
  };
}
export type SmsCallbacksService = ReturnType<typeof createSmsCallbacksService>;
