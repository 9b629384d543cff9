import { randomUUID } from 'node:crypto';
import {
  SMS_CONNECTION_CREDENTIALS,
  type SmsConnection,
  type SmsConnectionInput,
  type SmsConnectionPatch,
  type SmsConnectionProvider,
  type SmsConnectionState,
  type SmsConnectionTestResult,
} from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { Conn } from '../../db/rows';
import { ADAPTERS, adapterOf, connectionCallbackUrl } from '../../gateways/sms/routing/team-routing';
import { infobipCallbackUrl } from '../../gateways/sms/providers/infobip';
import { parseSmppUrl } from '../../gateways/sms/smpp/smpp-url';
import type { AuthContext } from '../../http/auth';
import { BadGatewayError, ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import type { SecretBox } from '../../lib/secret-box';
import { maskedSecret } from '../../lib/masked-secret';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { ConnectionChanges, ConnectionRow, SmsConnectionsRepository } from './sms-connections.repository';

export { ADAPTERS };

/** A test send waits this long for the provider's answer. */
const TEST_TIMEOUT_MS = 10_000;
const TEST_BODY = 'A test message from Herald.';

/** What an answer shows of a credential (lib/masked-secret.ts, as for webhook headers). */
export const credentialHint = maskedSecret;

type Credentials = Record<string, string>;

/**
 * The credentials a provider takes, checked: a field it does not take, or a missing or empty one,
 * is refused naming it (`credentials.auth_token`).
 */
function checkedCredentials(provider: SmsConnectionProvider, credentials: Credentials): Credentials {
  const fields = SMS_CONNECTION_CREDENTIALS[provider];
  const errors: Record<string, string[]> = {};
  for (const name of Object.keys(credentials))
    if (!fields.includes(name))
      errors[`credentials.${name}`] = [
        fields.length === 0
          ? `A ${provider} connection takes no credentials.`
          : `A ${provider} connection takes no credential ${name}; it takes ${fields.join(', ')}.`,
      ];
  for (const name of fields) if (!credentials[name]?.trim()) errors[`credentials.${name}`] = [`The credentials.${name} field is required for ${provider}.`];
  if (provider === 'smpp' && credentials.url?.trim() && !errors['credentials.url'])
    try {
      parseSmppUrl(credentials.url.trim());
    } catch (error) {
      errors['credentials.url'] = [`The credentials.url must be smpp://user:pass@host:port (as SMS_GATEWAY): ${(error as Error).message}`];
    }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return Object.fromEntries(fields.map((name) => [name, credentials[name]!.trim()]));
}

export function createSmsConnectionsService(deps: {
  db: Db;
  /** Each change is recorded in its own transaction. */
  audit: Pick<AuditTrail, 'record'>;
  connections: SmsConnectionsRepository;
  secrets: SecretBox;
  clock: Clock;
  config: { publicUrl: string; appTimezone: string };
}) {
  const open = (row: ConnectionRow): Credentials => JSON.parse(deps.secrets.open(row.credentialsEncrypted)) as Credentials;
  const seal = (credentials: Credentials) => deps.secrets.seal(JSON.stringify(credentials));
  const callbackUrl = (uuid: string, kind: 'status' | 'inbound') => connectionCallbackUrl(deps.config.publicUrl, uuid, kind);
  /**
   * The addresses to paste in the provider's console. Infobip signs no callback: its URLs carry the
   * secret token its adapter adds to every send's `webhooks.delivery.url` and checks on each callback
   * (infobipCallbackUrl), so the inbound address an admin pastes is checked the same way.
   */
  const consoleUrl = (row: ConnectionRow, kind: 'status' | 'inbound', credentials: Credentials) =>
    row.provider === 'infobip' && credentials.api_key ? infobipCallbackUrl(callbackUrl(row.uuid, kind), credentials.api_key) : callbackUrl(row.uuid, kind);
  /**
   * What the audit trail keeps of an answer: Infobip's callback token is left out, as the
   * credentials are, since the audit log is open to every member and the token lets one post
   * delivery reports.
   */
  const audited = (connection: SmsConnection): SmsConnection =>
    connection.provider === 'infobip'
      ? { ...connection, status_callback_url: callbackUrl(connection.uuid, 'status'), inbound_url: callbackUrl(connection.uuid, 'inbound') }
      : connection;

  /**
   * The router's state of a connection, as it wrote it. Its counts are of one UTC day: a row last
   * written on an earlier day counts nothing today (the router resets them on its next write).
   */
  const stateOf = (row: ConnectionRow): SmsConnectionState => {
    const today = row.stateDay === deps.clock.now().toISOString().slice(0, 10);
    const moment = (value: Date | null) => (value ? formatTimestamp(value, deps.config.appTimezone) : null);
    return {
      circuit: row.circuit ?? 'closed',
      open_until: moment(row.openUntil),
      last_error: row.lastError,
      last_error_at: moment(row.lastErrorAt),
      messages_today: today ? (row.messagesToday ?? 0) : 0,
      errors_today: today ? (row.errorsToday ?? 0) : 0,
      failovers_today: today ? (row.failoversToday ?? 0) : 0,
    };
  };

  /** Credentials are shown only as hints: the values never leave through an answer (nor, so, through the audit log, which records answers). */
  const present = (row: ConnectionRow): SmsConnection => {
    const credentials = open(row);
    return {
      uuid: row.uuid,
      name: row.name,
      provider: row.provider as SmsConnectionProvider,
      base_url: row.baseUrl ?? adapterOf(row.provider)?.defaultBaseUrl ?? '',
      credentials: Object.fromEntries(Object.entries(credentials).map(([name, value]) => [name, credentialHint(value)])),
      senders: row.senders,
      max_per_second: row.maxPerSecond,
      enabled: row.enabled,
      price_per_segment: row.pricePerSegment,
      status_callback_url: consoleUrl(row, 'status', credentials),
      inbound_url: consoleUrl(row, 'inbound', credentials),
      state: stateOf(row),
      links: selfLinks(deps.config.publicUrl, 'sms-connections', row.uuid),
      created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
      updated_at: formatTimestamp(row.updatedAt, deps.config.appTimezone),
    };
  };

  /** Only the HTTP providers have an API host to point elsewhere. */
  const baseUrlOf = (provider: string, baseUrl: string | undefined): string | null | undefined => {
    if (baseUrl === undefined) return undefined;
    if (baseUrl !== '' && !adapterOf(provider)) throw ValidationError.field('base_url', `A ${provider} connection takes no base url.`);
    return baseUrl === '' ? null : baseUrl.replace(/\/$/, '');
  };

  const find = async (auth: AuthContext, uuid: string, conn: Conn = deps.db, lock = false) => {
    const row = await deps.connections.find(auth.teamId, uuid, conn, lock);
    if (!row) throw new NotFoundError();
    return row;
  };

  return {
    async list(auth: AuthContext, window: PageWindow) {
      const { rows, total } = await deps.connections.list(auth.teamId, window);
      return { items: rows.map(present), total };
    },

    show: async (auth: AuthContext, uuid: string) => present(await find(auth, uuid)),

    /** The credentials are sealed with Herald's key; the answer shows hints of them. */
    async create(auth: AuthContext, input: SmsConnectionInput) {
      const credentials = checkedCredentials(input.provider, input.credentials);
      const baseUrl = baseUrlOf(input.provider, input.base_url) ?? null;
      return deps.db.transaction(async (tx) => {
        const row = await deps.connections.insert(tx, {
          teamId: auth.teamId,
          name: input.name,
          provider: input.provider,
          baseUrl,
          credentialsEncrypted: seal(credentials),
          senders: input.senders,
          maxPerSecond: input.max_per_second,
          enabled: input.enabled,
          pricePerSegment: input.price_per_segment,
        });
        const connection = present(row);
        await deps.audit.record(tx, auth, { resourceType: 'sms_connection', resourceUuid: row.uuid, after: audited(connection), created: true });
        return connection;
      });
    },

    /**
     * A partial edit: fields left out keep their values. Credential fields given replace theirs and
     * the others are kept; a hint sent back as it was read keeps the stored value.
     */
    async update(auth: AuthContext, uuid: string, patch: SmsConnectionPatch) {
      return deps.db.transaction(async (tx) => {
        const current = await find(auth, uuid, tx, true);
        const changes: ConnectionChanges = {};
        if (patch.name !== undefined) changes.name = patch.name;
        if (patch.senders !== undefined) {
          // A route's sender must stay one of the senders of each connection of its rule that lists
          // senders (the routes' edit checks it the other way round): no edit here may strand one.
          const stranded =
            patch.senders.length === 0
              ? []
              : (await deps.connections.routeSendersOf(tx, auth.teamId, uuid)).filter((sender) => !patch.senders!.includes(sender));
          if (stranded.length > 0)
            throw ValidationError.field(
              'senders',
              `The team’s routes send from ${stranded.join(', ')} through this connection: keep ${stranded.length === 1 ? 'it' : 'them'} among the senders, or change the routes first.`,
            );
          changes.senders = patch.senders;
        }
        if (patch.max_per_second !== undefined) changes.maxPerSecond = patch.max_per_second;
        if (patch.enabled !== undefined) changes.enabled = patch.enabled;
        if (patch.price_per_segment !== undefined) changes.pricePerSegment = patch.price_per_segment;
        const baseUrl = baseUrlOf(current.provider, patch.base_url);
        if (baseUrl !== undefined) changes.baseUrl = baseUrl;
        if (patch.credentials !== undefined) {
          const stored = open(current);
          const merged = { ...stored };
          for (const [name, value] of Object.entries(patch.credentials))
            if (!(stored[name] !== undefined && value === credentialHint(stored[name]))) merged[name] = value;
          changes.credentialsEncrypted = seal(checkedCredentials(current.provider as SmsConnectionProvider, merged));
        }
        const row = await deps.connections.update(tx, auth.teamId, uuid, changes);
        if (!row) throw new NotFoundError();
        const connection = present(row);
        await deps.audit.record(tx, auth, {
          resourceType: 'sms_connection',
          resourceUuid: uuid,
          before: audited(present(current)),
          after: audited(connection),
        });
        return connection;
      });
    },

    /**
     * Refused (409) while the connection is in use: a route names it (the routes' edit holds the
     * connections it names FOR SHARE, so the two cannot cross), or a message or keyword reply is on
     * its way through it (its status callback would find no connection to settle it).
     */
    async delete(auth: AuthContext, uuid: string) {
      await deps.db.transaction(async (tx) => {
        const current = await find(auth, uuid, tx, true);
        const uses = await deps.connections.usesOf(tx, auth.teamId, current);
        const reasons = [
          ...(uses.routed ? ['the team’s routes name it (remove it from them first)'] : []),
          ...(uses.messages > 0 ? [`${uses.messages} ${uses.messages === 1 ? 'message is' : 'messages are'} still on the way through it`] : []),
          ...(uses.replies > 0 ? [`${uses.replies} keyword ${uses.replies === 1 ? 'reply is' : 'replies are'} still on the way through it`] : []),
        ];
        if (reasons.length > 0) throw new ConflictError(`The connection “${current.name}” is in use and cannot be deleted: ${reasons.join('; ')}.`);
        await deps.connections.delete(tx, current.id);
        await deps.audit.record(tx, auth, { resourceType: 'sms_connection', resourceUuid: uuid, before: audited(present(current)) });
      });
    },

    /**
     * One message to `phoneNumber` through this connection only, by its adapter, from its first
     * sender. A refusal the provider answered is the caller's to fix (422, keyed by what is at fault:
     * `phone_number` for the recipient, `credentials` for the account); a provider that failed or did
     * not answer is 502. Only HTTP providers for now.
     */
    async sendTest(auth: AuthContext, uuid: string, phoneNumber: string): Promise<SmsConnectionTestResult> {
      const row = await find(auth, uuid);
      const adapter = adapterOf(row.provider);
      if (!adapter) throw ValidationError.field('provider', `A test send is for HTTP providers for now; this connection is ${row.provider}.`);
      const from = row.senders[0];
      if (!from) throw ValidationError.field('senders', 'The connection has no sender to send the test from; add one.');
      const to = phoneNumber.startsWith('+') ? phoneNumber : `+${phoneNumber}`;
      const [outcome] = await adapter.send(
        {
          baseUrl: row.baseUrl ?? adapter.defaultBaseUrl,
          credentials: open(row),
          statusCallbackUrl: callbackUrl(row.uuid, 'status'),
          timeoutMs: TEST_TIMEOUT_MS,
        },
        [{ clientRef: randomUUID(), to, from, body: TEST_BODY }],
      );
      const provider = adapter.name[0]!.toUpperCase() + adapter.name.slice(1);
      if (!outcome) throw new BadGatewayError(`${provider} gave no answer for the test message.`);
      if (outcome.kind === 'in_doubt') throw new BadGatewayError(`No answer came from ${provider} (${outcome.error}); the test message may have been sent.`);
      if (outcome.kind === 'refused') {
        const reason = `${outcome.code}: ${outcome.message}`;
        if (outcome.errorClass === 'transient') throw new BadGatewayError(`${provider} did not take the test message (${reason}).`);
        throw new ValidationError(
          { [outcome.errorClass === 'recipient' ? 'phone_number' : 'credentials']: [reason] },
          `${provider} refused the test message (${reason}).`,
        );
      }
      const result = { provider_message_id: outcome.providerId };
      // Recorded as what it answers, with the number it went to (the connection itself is unchanged).
      await deps.db.transaction((tx) =>
        deps.audit.record(tx, auth, { resourceType: 'sms_connection', resourceUuid: uuid, after: { phone_number: to, ...result }, created: true }),
      );
      return result;
    },
  };
}
export type SmsConnectionsService = ReturnType<typeof createSmsConnectionsService>;
