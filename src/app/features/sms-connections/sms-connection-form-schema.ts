import { z } from 'zod';
import { SmsConnectionInputSchema, SMS_CONNECTION_CREDENTIALS, type SmsConnectionInput, type SmsConnectionPatch } from '../../../shared/contract';
import type { SmsConnection } from '../../api/gen/types.gen';
import { DEFAULT_BASE_URLS, SMS_CONNECTION_PROVIDERS, type SmsConnectionProvider } from './sms-connection-providers';

const shape = SmsConnectionInputSchema.shape;

/** What the form edits. `provider` is empty until one is picked; `credentials` holds what was typed (empty: keep the saved one, on an edit). */
export interface SmsConnectionFormValues {
  provider: SmsConnectionProvider | '';
  name: string;
  base_url: string;
  credentials: Record<string, string>;
  senders: string[];
  max_per_second: number;
  enabled: boolean;
}

/**
 * The form's checks, the contract's own fields. A new connection needs every credential field of its
 * provider; an edit keeps the saved value of a field left empty, so none is required there.
 */
export function smsConnectionFormSchema(mode: 'create' | 'edit') {
  return z
    .object({
      provider: z.union([z.enum(SMS_CONNECTION_PROVIDERS), z.literal('')]),
      name: shape.name,
      base_url: shape.base_url.unwrap(),
      credentials: z.record(z.string(), z.string()),
      senders: shape.senders.unwrap(),
      max_per_second: shape.max_per_second.unwrap(),
      enabled: z.boolean(),
    })
    .superRefine((values, context) => {
      if (values.provider === '') {
        context.addIssue({ code: 'custom', path: ['provider'], message: 'Choose the provider.' });
        return;
      }
      if (mode === 'edit') return;
      for (const name of SMS_CONNECTION_CREDENTIALS[values.provider])
        if (!values.credentials[name]?.trim())
          context.addIssue({ code: 'custom', path: ['credentials', name], message: `The ${name.replaceAll('_', ' ')} is required.` });
    });
}

/** The base URL as the form shows it: empty when it is the provider's public host (what the service uses when none is set). */
function shownBaseUrl(connection: SmsConnection): string {
  return connection.base_url === DEFAULT_BASE_URLS[connection.provider] ? '' : connection.base_url;
}

export function formValuesOf(connection?: SmsConnection): SmsConnectionFormValues {
  if (!connection) return { provider: '', name: '', base_url: '', credentials: {}, senders: [], max_per_second: 10, enabled: true };
  return {
    provider: connection.provider,
    name: connection.name,
    base_url: shownBaseUrl(connection),
    // Never the saved values: the form shows their hints beside empty fields.
    credentials: {},
    senders: connection.senders,
    max_per_second: connection.max_per_second,
    enabled: connection.enabled,
  };
}

/** Only the provider's own fields, trimmed; on an edit, only those typed (the others keep their saved values). */
function typedCredentials(provider: SmsConnectionProvider, credentials: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    SMS_CONNECTION_CREDENTIALS[provider].flatMap((name) => {
      const value = credentials[name]?.trim() ?? '';
      return value === '' ? [] : [[name, value]];
    }),
  );
}

export function toSmsConnectionInput(values: SmsConnectionFormValues): SmsConnectionInput {
  const provider = values.provider as SmsConnectionProvider;
  return {
    name: values.name.trim(),
    provider,
    ...(values.base_url.trim() === '' ? {} : { base_url: values.base_url.trim() }),
    credentials: typedCredentials(provider, values.credentials),
    senders: values.senders,
    max_per_second: values.max_per_second,
    enabled: values.enabled,
    price_per_segment: null,
  };
}

/** Only what changed: the edit is a partial PUT, so untouched fields (and credentials left empty) keep their stored values. */
export function smsConnectionPatch(original: SmsConnection, values: SmsConnectionFormValues): SmsConnectionPatch {
  const patch: SmsConnectionPatch = {};
  if (values.name.trim() !== original.name) patch.name = values.name.trim();
  if (values.base_url.trim() !== shownBaseUrl(original)) patch.base_url = values.base_url.trim();
  const credentials = typedCredentials(original.provider, values.credentials);
  if (Object.keys(credentials).length > 0) patch.credentials = credentials;
  if (values.senders.length !== original.senders.length || values.senders.some((sender, index) => sender !== original.senders[index]))
    patch.senders = values.senders;
  if (values.max_per_second !== original.max_per_second) patch.max_per_second = values.max_per_second;
  if (values.enabled !== original.enabled) patch.enabled = values.enabled;
  return patch;
}
