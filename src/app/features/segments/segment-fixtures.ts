import type { Segment, SegmentContact } from '../../api/gen/types.gen';

export const VIP_GROUP = '11111111-1111-4111-8111-111111111111';
export const SUMMER_CAMPAIGN = '22222222-2222-4222-8222-222222222222';

/** A segment as the service answers it; `overrides` change any field. */
export function segment(overrides: Partial<Segment> = {}): Segment {
  const uuid = overrides.uuid ?? '7a3c0e55-0000-4000-8000-000000000001';
  return {
    uuid,
    name: 'Recent clickers',
    description: 'Clicked the summer sale, not VIP',
    match: 'all',
    conditions: [
      { type: 'event', event: 'clicked', campaign_uuid: SUMMER_CAMPAIGN, within_days: 7 },
      { type: 'group', op: 'not_in', group_uuid: VIP_GROUP },
    ],
    links: [{ rel: 'self', uri: `http://localhost/api/2.0/segments/${uuid}` }],
    created_at: '2026-11-02 09:30:00',
    updated_at: '2026-11-02 09:30:00',
    ...overrides,
  };
}

export function segmentContact(overrides: Partial<SegmentContact> = {}): SegmentContact {
  return { phone_number: '447700900123', custom_fields: { first_name: 'Ann', city: 'Leeds' }, country: 'GB', ...overrides };
}
