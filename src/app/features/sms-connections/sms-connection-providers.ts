import { SMS_CONNECTION_CREDENTIALS, SMS_CONNECTION_PROVIDERS, type SmsConnectionProvider } from '../../../shared/contract';

export { SMS_CONNECTION_CREDENTIALS, SMS_CONNECTION_PROVIDERS, type SmsConnectionProvider };

/** How the dashboard names each provider. */
export const PROVIDER_LABELS: Record<SmsConnectionProvider, string> = {
  twilio: 'Twilio',
  vonage: 'Vonage',
  infobip: 'Infobip',
  plivo: 'Plivo',
  telnyx: 'Telnyx',
  sinch: 'Sinch',
  smpp: 'SMPP bind',
  simulator: 'Simulator',
};

/** One credential field of a provider's form: its label, where the value is in the provider's console, and whether it is a secret. */
export interface CredentialField {
  name: string;
  label: string;
  help: string;
  secret: boolean;
  placeholder?: string;
}

/**
 * The help of each credential field, by provider and the contract's field name: where an admin
 * finds the value in the provider's own console. A test keeps the keys equal to the contract's.
 */
export const CREDENTIAL_FIELDS: Record<SmsConnectionProvider, readonly CredentialField[]> = {
  twilio: [
    { name: 'account_sid', label: 'Account SID', help: 'Twilio Console → Account Info → Account SID (starts with AC).', secret: false, placeholder: 'AC…' },
    {
      name: 'auth_token',
      label: 'Auth Token',
      help: 'Twilio Console → Account Info → Auth Token (click Show to reveal it). It also signs the status callbacks.',
      secret: true,
    },
  ],
  vonage: [
    { name: 'api_key', label: 'API key', help: 'Vonage API Dashboard → API Settings → API key.', secret: false },
    { name: 'api_secret', label: 'API secret', help: 'Vonage API Dashboard → API Settings → API secret.', secret: true },
    {
      name: 'signature_secret',
      label: 'Signature secret',
      help: 'Vonage API Dashboard → API Settings → Signature secret: Herald refuses delivery receipts and inbound messages not signed with it.',
      secret: true,
    },
  ],
  infobip: [
    {
      name: 'api_key',
      label: 'API key',
      help: 'Infobip portal → Developer tools → API keys: create a key with the SMS scope. Your account’s own base URL (xxxxx.api.infobip.com) is shown there too.',
      secret: true,
    },
  ],
  plivo: [
    { name: 'auth_id', label: 'Auth ID', help: 'Plivo Console → Overview → Account → Auth ID (starts with MA or SA).', secret: false },
    { name: 'auth_token', label: 'Auth Token', help: 'Plivo Console → Overview → Account → Auth Token. It also signs the status callbacks.', secret: true },
  ],
  telnyx: [
    { name: 'api_key', label: 'API key', help: 'Telnyx Mission Control → Keys & Credentials → API Keys: create a key (starts with KEY).', secret: true },
    {
      name: 'public_key',
      label: 'Public key',
      help: 'Telnyx Mission Control → Keys & Credentials → Public Key: the base64 Ed25519 key Telnyx signs its webhooks with.',
      secret: false,
    },
  ],
  sinch: [
    { name: 'service_plan_id', label: 'Service plan ID', help: 'Sinch Customer Dashboard → SMS → APIs → Service plan ID.', secret: false },
    { name: 'api_token', label: 'API token', help: 'Sinch Customer Dashboard → SMS → APIs → API token (click Show to reveal it).', secret: true },
    {
      name: 'webhook_secret',
      label: 'Webhook secret',
      help: 'The HMAC secret you set on the service plan’s callback (SMS → APIs → Callback URLs): Herald refuses callbacks not signed with it.',
      secret: true,
    },
  ],
  smpp: [
    {
      name: 'url',
      label: 'SMPP URL',
      help: 'smpp://user:pass@host:port, as SMS_GATEWAY: the system ID, password, host and port your carrier gave you for the bind.',
      secret: true,
      placeholder: 'smpp://user:pass@smpp.example.net:2775',
    },
  ],
  simulator: [],
};

/** The API host Herald calls when the base URL is left empty (the adapters' own defaults). */
export const DEFAULT_BASE_URLS: Partial<Record<SmsConnectionProvider, string>> = {
  twilio: 'https://api.twilio.com',
  vonage: 'https://rest.nexmo.com',
  infobip: 'https://api.infobip.com',
  plivo: 'https://api.plivo.com',
  telnyx: 'https://api.telnyx.com',
  sinch: 'https://us.sms.api.sinch.com',
};

/** More to say of the base URL for a provider whose host depends on the account. */
export const BASE_URL_NOTES: Partial<Record<SmsConnectionProvider, string>> = {
  infobip: 'Infobip recommends your account’s own host, e.g. https://xxxxx.api.infobip.com (shown on the portal’s home page).',
  sinch: 'For a service plan in another region: https://eu.sms.api.sinch.com (or au, br, ca).',
};

/** Where in the provider's console the two callback URLs go. */
export const CALLBACK_HELP: Record<SmsConnectionProvider, string> = {
  twilio:
    'Herald passes the status callback URL with every message. Paste the inbound URL under Phone Numbers → your number → Messaging → “A message comes in”.',
  vonage:
    'Herald passes the status callback URL with every message; also paste it under API Settings → Delivery receipts, and the inbound URL under Inbound messages.',
  infobip:
    'Herald passes the status callback URL with every message. Paste the inbound URL on your number’s forwarding action (Numbers → your number → Forward to HTTP).',
  plivo:
    'Herald passes the status callback URL with every message. Paste the inbound URL as the Message URL of the application your numbers use (Messaging → Applications).',
  telnyx:
    'Herald passes the status callback URL with every message. Paste the inbound URL as the webhook URL of your messaging profile (Messaging → Profiles).',
  sinch: 'Herald passes the status callback URL with every batch. Paste the inbound URL under SMS → APIs → your service plan → Callback URLs.',
  smpp: 'An SMPP bind carries its delivery receipts and inbound messages itself: nothing to paste.',
  simulator: 'The simulator needs no callback.',
};
