import type { ContactDetail, DirectoryContact } from '../../api/gen/types.gen';

export const ADA_NUMBER = '447700900123';
export const VIP_GROUP = { uuid: '0f8c3a52-61a4-4b0e-9a51-3c1f1b0c9d11', name: 'VIP customers' };
export const NEWSLETTER_GROUP = { uuid: '1a9d4b63-72b5-4c1f-8b62-4d2a2c1d0e22', name: 'Newsletter' };
export const OPTOUTS = { uuid: '2bae5c74-83c6-4d2a-9c73-5e3b3d2e1f33', name: 'default_optouts' };
export const SPRING_SALE = { uuid: '5f0c2d1e-0000-4000-8000-00000000c0de', name: 'Spring sale' };

export function directoryContact(phone_number: string, groups: DirectoryContact['groups']): DirectoryContact {
  return { phone_number, groups };
}

/**
 * Ada's number, opted out by texting STOP after the Spring sale: in two groups with her fields in
 * each, one message delivered and one failed, a click and a bot's preview, her STOP.
 */
export function contactDetail(overrides: Partial<ContactDetail> = {}): ContactDetail {
  return {
    phone_number: ADA_NUMBER,
    opted_out: true,
    groups: [
      { ...NEWSLETTER_GROUP, custom_fields: { first_name: 'Ada', city: 'London' }, added_at: '2026-10-01 09:00:00' },
      { ...VIP_GROUP, custom_fields: { first_name: 'Ada L.', email: 'ada@example.com' }, added_at: '2026-10-02 10:15:00' },
      { ...OPTOUTS, custom_fields: {}, added_at: '2026-11-02 18:04:00' },
    ],
    messages: {
      total: 2,
      items: [
        { campaign: SPRING_SALE, status: 'delivered', reason: null, sent_at: '2026-11-02 09:30:00', delivered_at: '2026-11-02 09:31:10' },
        {
          campaign: { uuid: '6a1b2c3d-0000-4000-8000-0000000007e1', name: 'Autumn news' },
          status: 'failed',
          reason: 'Absent subscriber',
          sent_at: '2026-10-20 12:00:00',
          delivered_at: '',
        },
      ],
    },
    clicks: {
      total: 2,
      items: [
        { campaign: SPRING_SALE, link_name: 'SALE', clicked_at: '2026-11-02 09:41:00', is_bot: false },
        { campaign: SPRING_SALE, link_name: 'SALE', clicked_at: '2026-11-02 09:30:06', is_bot: true },
      ],
    },
    inbound_messages: {
      total: 1,
      items: [{ uuid: '9b9b9b9b-0000-4000-8000-000000000001', body: 'STOP please', keyword: null, opted_out: true, received_at: '2026-11-02 18:04:00' }],
    },
    opt_out_events: {
      total: 1,
      items: [
        {
          phone_number: ADA_NUMBER,
          kind: 'opt_out',
          source: 'keyword',
          campaign: SPRING_SALE,
          user: null,
          reason: null,
          created_at: '2026-11-02 18:04:00',
        },
      ],
    },
    opt_in_request: null,
    ...overrides,
  };
}
