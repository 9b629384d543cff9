import type { CampaignReview } from '../../../shared/contract';
import type { Campaign } from '../../api/gen/types.gen';
import type { CampaignFormValues } from './campaign-form-values';

export const ZONE = 'Europe/London';
export const CAMPAIGN_UUID = '5d1c6a70-0000-4000-8000-000000000001';
export const TEMPLATE_UUID = '5d1c6a70-0000-4000-8000-0000000000a1';
export const GROUP_UUID = '5d1c6a70-0000-4000-8000-0000000000b1';

/** A throttled campaign on a summer day in London (BST), sending from 09:00 to 17:00. */
export function throttledValues(overrides: Partial<CampaignFormValues> = {}): CampaignFormValues {
  return {
    name: 'Summer sale',
    sender: 'HeraldShop',
    template_uuid: TEMPLATE_UUID,
    included_contact_groups: [GROUP_UUID],
    excluded_contact_groups: [],
    included_segments: [],
    excluded_segments: [],
    scheduled_send_date: '2030-07-01 09:00:00',
    expiry_date: '2030-07-02 09:00:00',
    throttled: true,
    scheduled_finish_date: '2030-07-01 17:00:00',
    pauses: [],
    send_now: false,
    ignore_quiet_hours: false,
    local_time: false,
    ...overrides,
  };
}

export function campaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    uuid: CAMPAIGN_UUID,
    team_uuid: '5d1c6a70-0000-4000-8000-0000000000c1',
    name: 'Spring sale',
    sender: 'HeraldShop',
    scheduled_send_date: '2026-03-02 09:00:00',
    expiry_date: '2026-03-03 09:00:00',
    status: 0,
    throttled: false,
    included_contact_groups: [GROUP_UUID],
    excluded_contact_groups: [],
    included_segments: [],
    excluded_segments: [],
    template_uuid: TEMPLATE_UUID,
    started_sending_at: '',
    finished_sending_at: '',
    created_at: '2026-03-01 10:00:00',
    updated_at: '2026-03-01 10:00:00',
    scheduled_finish_date: '',
    manually_paused: null,
    pauses: [],
    is_test: false,
    is_locked: false,
    approval: { status: 'not_required', requested_by: null, requested_at: '', decided_by: null, decided_at: '', comment: '', recipients: null, notice: '' },
    is_draft: false,
    ignore_quiet_hours: false,
    local_time: false,
    stopped_at: '',
    stopped_by: null,
    expired_at: '',
    paused_until: '',
    variants: [],
    ab_test: null,
    ...overrides,
  };
}

/** A review of 12 recipients, one SMS part each, with nothing to confirm and no gaps. */
export function campaignReview(overrides: Partial<CampaignReview> = {}): CampaignReview {
  return {
    recipients: { included: 12, duplicates: 0, excluded: 0, opted_out: 0, total: 12 },
    segments: { min: 1, typical: 1, max: 1 },
    total_parts: 12,
    cost: null,
    starts_at: '2030-03-02 09:00:00',
    finishes_at: '2030-03-02 09:00:01',
    quiet_hours: null,
    quiet_periods: [],
    quiet_zones: [],
    coverage: [],
    approval_required: false,
    confirm_threshold: 1000,
    confirm_required: false,
    test_sends: [],
    ...overrides,
  };
}
