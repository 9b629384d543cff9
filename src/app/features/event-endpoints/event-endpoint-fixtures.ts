import type { EventDelivery, EventDeliveryDetail, EventEndpoint } from '../../api/gen/types.gen';

/** An event endpoint as the service answers it; `overrides` change any field. */
export function eventEndpoint(overrides: Partial<EventEndpoint> = {}): EventEndpoint {
  const uuid = overrides.uuid ?? '5e1f0a7b-0000-4000-8000-000000000001';
  return {
    uuid,
    url: 'https://crm.example.com/hooks/herald',
    description: 'CRM delivery receipts',
    events: ['message.delivered', 'message.failed', 'contact.opted_out'],
    headers: { Authorization: 'Bearer crm' },
    enabled: true,
    failing_since: '',
    disabled_reason: null,
    links: [{ rel: 'self', uri: `http://localhost/api/2.0/event-endpoints/${uuid}` }],
    created_at: '2026-11-02 09:30:00',
    updated_at: '2026-11-02 09:30:00',
    ...overrides,
  };
}

export function eventDelivery(overrides: Partial<EventDelivery> = {}): EventDelivery {
  return {
    uuid: '6f2a1b8c-0000-4000-8000-000000000001',
    type: 'message.delivered',
    status: 'delivered',
    item_count: 3,
    attempts: 1,
    last_status_code: 200,
    last_error: null,
    next_attempt_at: '',
    created_at: '2026-11-03 10:00:00',
    finished_at: '2026-11-03 10:00:01',
    ...overrides,
  };
}

export function eventDeliveryDetail(overrides: Partial<EventDeliveryDetail> = {}): EventDeliveryDetail {
  return {
    ...eventDelivery(),
    payload: { type: 'message.delivered', timestamp: '2026-11-03T10:00:00.000Z', data: { campaign: { uuid: 'c1', name: 'Autumn sale' } } },
    attempt_log: [{ status_code: 200, latency_ms: 42, error: null, created_at: '2026-11-03 10:00:01' }],
    ...overrides,
  };
}
