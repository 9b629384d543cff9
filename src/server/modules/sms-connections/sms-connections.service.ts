import { randomUUID } from 'node:crypto';
import {
  SMS_CONNECTION_CREDENTIALS,
  type SmsConnection,
  type SmsConnectionInput,
  type SmsConnectionPatch,
  type SmsConnectionProvider,
  type SmsConnectionTestResult,
} from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { Conn } from '../../db/rows';
import { infobipAdapter } from '../../gateways/sms/providers/infobip';
import { plivoAdapter } from '../../gateways/sms/providers/plivo';
import type { ProviderAdapter, ProviderName } from '../../gateways/sms/providers/provider';
import { sinchAdapter } from '../../gateways/sms/providers/sinch';
import { telnyxAdapter } from '../../gateways/sms/providers/telnyx';
import { twilioAdapter } from '../../gateways/sms/providers/twilio';
import { vonageAdapter } from '../../gateways/sms/providers/vonage';
import { parseSmppUrl } from '../../gateways/sms/smpp/smpp-url';
import type { AuthContext } from '../../http/auth';
import { BadGatewayError, ConflictError, NotFoundError, ValidationError } from '../../lib/errors';
import { selfLinks } from '../../lib/presenters';
import type { SecretBox } from '../../lib/secret-box';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { ConnectionChanges, ConnectionRow, SmsConnectionsRepository } from './sms-connections.repository';

/** The HTTP adapters, by provider: a connection to one of them is sent through it. */
export const ADAPTERS: Record<ProviderName, ProviderAdapter> = {
  twilio: twilioAdapter,
  vonage: vonageAdapter,
  infobip: infobipAdapter,
  plivo: plivoAdapter,
  telnyx: telnyxAdapter,
  sinch: sinchAdapter,
};

const adapterOf = (provider: string): ProviderAdapter | undefined => ADAPTERS[provider as ProviderName];

/** A test send waits this long for the provider's answer. */
const TEST_TIMEOUT_MS = 10_000;
const TEST_BODY = 'A test message from Herald.';

const MASK = '••••';
/** What an answer shows of a credential: its last 4 characters when it has 12 or more (so a short one is not half shown), else only the mask. */
export const credentialHint = (value: string): string => (value.length >= 12 ? MASK + value.slice(-4) : MASK);

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
  const callbackUrl = (uuid: string, kind: 'status' | 'inbound') => `${deps.config.publicUrl}/api/2.0/sms-connections/${uuid}/${kind}`;

  /** Credentials are shown only as hints: the values never leave through an answer (nor, so, through the audit log, which records answers). */
  const present = (row: ConnectionRow): SmsConnection => ({
    uuid: row.uuid,
    name: row.name,
    provider: row.provider as SmsConnectionProvider,
    base_url: row.baseUrl ?? adapterOf(row.provider)?.defaultBaseUrl ?? '',
    credentials: Object.fromEntries(Object.entries(open(row)).map(([name, value]) => [name, credentialHint(value)])),
    senders: row.senders,
    max_per_second: row.maxPerSecond,
    enabled: row.enabled,
    price_per_segment: row.pricePerSegment,
    status_callback_url: callbackUrl(row.uuid, 'status'),
    inbound_url: callbackUrl(row.uuid, 'inbound'),
    links: selfLinks(deps.config.publicUrl, 'sms-connections', row.uuid),
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
    updated_at: formatTimestamp(row.updatedAt, deps.config.appTimezone),
  });

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
        await deps.audit.record(tx, auth, { resourceType: 'sms_connection', resourceUuid: row.uuid, after: connection, created: true });
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
        if (patch.senders !== undefined) changes.senders = patch.senders;
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
        await deps.audit.record(tx, auth, { resourceType: 'sms_connection', resourceUuid: uuid, before: present(current), after: connection });
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
        await deps.audit.record(tx, auth, { resourceType: 'sms_connection', resourceUuid: uuid, before: present(current) });
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
