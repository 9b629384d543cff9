import type { SmsConnection } from '../../api/gen/types.gen';

/** A connection as the service answers it (Twilio, nothing carried yet); `overrides` change any field. */
export function smsConnection(overrides: Partial<SmsConnection> = {}): SmsConnection {
  const uuid = overrides.uuid ?? '7a3c2d9e-0000-4000-8000-000000000001';
  return {
    uuid,
    name: 'Twilio UK',
    provider: 'twilio',
    base_url: 'https://api.twilio.com',
    credentials: { account_sid: '********cdef', auth_token: '********4f2a' },
    senders: ['+447700900001', 'Acme'],
    max_per_second: 20,
    enabled: true,
    price_per_segment: null,
    status_callback_url: `https://herald.example.com/api/2.0/sms-connections/${uuid}/status`,
    inbound_url: `https://herald.example.com/api/2.0/sms-connections/${uuid}/inbound`,
    state: {
      circuit: 'closed',
      open_until: null,
      last_error: null,
      last_error_at: null,
      messages_today: 0,
      errors_today: 0,
      failovers_today: 0,
    },
    links: [{ rel: 'self', uri: `http://localhost/api/2.0/sms-connections/${uuid}` }],
    created_at: '2026-11-20 09:30:00',
    updated_at: '2026-11-20 09:30:00',
    ...overrides,
  };
}
