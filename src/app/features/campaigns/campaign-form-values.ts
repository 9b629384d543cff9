import type { FieldError, FieldErrors, Resolver } from 'react-hook-form';
import { set } from 'react-hook-form';
import { CampaignInputSchema, type CampaignInput } from '../../../shared/contract';
import type { Campaign } from '../../api/gen/types.gen';
import { checkCampaignTimes } from '../../../shared/schedule/campaign-times';
import { parseTimestamp } from '../../../shared/time/local-timestamps';
import { DURATIONS, serviceTimestamp, shiftTimestamp } from '../../lib/service-zone';

/** A send time this far in the past is refused when scheduling (a few minutes cover the time spent on the form and the review). */
export const PAST_GRACE_MS = 5 * DURATIONS.minute;
export const PAST_SEND_MESSAGE = 'The send time is more than 5 minutes in the past. Pick a later time, or choose “Send now”.';

/** What the form edits: every field always present ('' for a time not set), whether throttled or not. */
export interface CampaignFormValues {
  name: string;
  sender: string;
  template_uuid: string;
  included_contact_groups: string[];
  excluded_contact_groups: string[];
  /** Issue 35: segments sent to and skipped, beside the groups (always sent: an empty list clears them). */
  included_segments: string[];
  excluded_segments: string[];
  scheduled_send_date: string;
  expiry_date: string;
  throttled: boolean;
  scheduled_finish_date: string;
  pauses: { start_at: string; end_at: string }[];
  /** Form only: the send time is taken when the campaign is scheduled (the service's "now"), not typed. */
  send_now: boolean;
  /** Admins only (the service answers 403 to anyone else who changes it). */
  ignore_quiet_hours: boolean;
  /** The send time read in each recipient's own zone (not with throttling). */
  local_time: boolean;
  /** The A/B test (docs/ab-tests.md); absent: the form offers none and sends nothing of it. */
  ab?: AbFormValues;
}

/** An A/B test as the form edits it: the first variant is the campaign's own template, the others each name theirs. */
export interface AbFormValues {
  enabled: boolean;
  /** The campaign had variants when the form opened: turning the test off sends `variants: []`. */
  had: boolean;
  first_name: string;
  others: Array<{ name: string; template_uuid: string; sender: string }>;
  test_share: number;
  metric: 'human_click_rate' | 'conversion_rate' | 'revenue_per_recipient';
  decide_after_minutes: number;
  min_recipients_per_variant: number;
}

/** No A/B test yet: the settings' defaults, a second variant to fill in. */
export const NO_AB_TEST: AbFormValues = {
  enabled: false,
  had: false,
  first_name: 'A',
  others: [{ name: 'B', template_uuid: '', sender: '' }],
  test_share: 20,
  metric: 'human_click_rate',
  decide_after_minutes: 120,
  min_recipients_per_variant: 500,
};

/** The request's `variants` and `ab_test` from the form's (the first variant is the campaign's template). */
function abInput(ab: AbFormValues | undefined, templateUuid: string): Pick<CampaignInput, 'variants' | 'ab_test'> {
  if (!ab) return {};
  if (!ab.enabled) return ab.had ? { variants: [] } : {};
  const { test_share, metric, decide_after_minutes, min_recipients_per_variant } = ab;
  return {
    variants: [
      { name: ab.first_name, template_uuid: templateUuid },
      ...ab.others.map(({ name, template_uuid, sender }) => ({ name, template_uuid, ...(sender ? { sender } : {}) })),
    ],
    ab_test: { test_share, metric, decide_after_minutes, min_recipients_per_variant },
  };
}

/** The request body: a campaign that is not throttled sends no finish date and no pauses. */
export function toCampaignInput(values: CampaignFormValues): CampaignInput {
  const { throttled, scheduled_finish_date, pauses, send_now: _sendNow, ab, ...common } = values;
  const tested = abInput(ab, common.template_uuid);
  return throttled ? { ...common, throttled: true, scheduled_finish_date, pauses, ...tested } : { ...common, throttled: false, ...tested };
}

/** How long after the send time the form makes a campaign expire, and a throttled one finish, until they are set by hand. */
const EXPIRY_AFTER_SEND = DURATIONS.day;
const FINISH_AFTER_SEND = 4 * DURATIONS.hour;

/** The expiry and the finish the form derives from a send time ('' each when the send time names no moment). */
export function derivedTimes(send: string, timeZone: string): Pick<CampaignFormValues, 'expiry_date' | 'scheduled_finish_date'> {
  return { expiry_date: shiftTimestamp(send, EXPIRY_AFTER_SEND, timeZone), scheduled_finish_date: shiftTimestamp(send, FINISH_AFTER_SEND, timeZone) };
}

/** A new campaign: sent at the next full hour in the service's zone, finished 4 hours later, expiring after a day. */
export function newCampaignValues(timeZone: string, now: Date = new Date()): CampaignFormValues {
  const send = `${serviceTimestamp(timeZone, DURATIONS.hour, now).slice(0, 13)}:00:00`;
  return {
    name: '',
    sender: '',
    template_uuid: '',
    included_contact_groups: [],
    excluded_contact_groups: [],
    included_segments: [],
    excluded_segments: [],
    scheduled_send_date: send,
    ...derivedTimes(send, timeZone),
    throttled: false,
    pauses: [],
    send_now: false,
    ignore_quiet_hours: false,
    ab: NO_AB_TEST,
    local_time: false,
  };
}

/**
 * Which of the expiry and the finish follow the send time when the form opens (they then move with
 * it until the marketer edits them). The form keeps no record of who set a stored time, so a saved
 * campaign's expiry or finish counts as set by hand unless it is exactly what the form derives from
 * the stored send time (a day, 4 hours later); a finish never set (a campaign not throttled) follows.
 * A new campaign's times are derived, so both follow.
 */
export function timesFollowingSend(values: CampaignFormValues, timeZone: string): { expiry: boolean; finish: boolean } {
  const derived = derivedTimes(values.scheduled_send_date, timeZone);
  return {
    expiry: values.expiry_date === derived.expiry_date,
    finish: values.scheduled_finish_date === '' || values.scheduled_finish_date === derived.scheduled_finish_date,
  };
}

export function campaignFormValues(campaign: Campaign): CampaignFormValues {
  return {
    name: campaign.name,
    sender: campaign.sender,
    template_uuid: campaign.template_uuid,
    included_contact_groups: campaign.included_contact_groups,
    excluded_contact_groups: campaign.excluded_contact_groups,
    included_segments: campaign.included_segments,
    excluded_segments: campaign.excluded_segments,
    scheduled_send_date: campaign.scheduled_send_date,
    expiry_date: campaign.expiry_date,
    throttled: campaign.throttled,
    scheduled_finish_date: campaign.scheduled_finish_date,
    pauses: campaign.pauses.map(({ start_at, end_at }) => ({ start_at, end_at })),
    send_now: false,
    ignore_quiet_hours: campaign.ignore_quiet_hours,
    ab: campaign.ab_test
      ? {
          enabled: true,
          had: true,
          first_name: campaign.variants[0]?.name ?? 'A',
          others: campaign.variants.slice(1).map(({ name, template_uuid, sender }) => ({ name, template_uuid, sender })),
          test_share: campaign.ab_test.test_share,
          metric: campaign.ab_test.metric,
          decide_after_minutes: campaign.ab_test.decide_after_minutes,
          min_recipients_per_variant: campaign.ab_test.min_recipients_per_variant,
        }
      : NO_AB_TEST,
    local_time: campaign.local_time,
  };
}

/**
 * Every rule's first message, keyed by request field (`pauses.1`, `pauses.0.end_at`): the contract's
 * shape rules, then the shared time rules the service applies (spec §2.5, §3) in the same words.
 */
export function campaignErrors(values: CampaignFormValues, timeZone: string): Record<string, string> {
  const input = toCampaignInput(values);
  const errors: Record<string, string> = {};
  const parsed = CampaignInputSchema.safeParse(input);
  if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= issue.message;
  for (const { field, message } of checkCampaignTimes(input, timeZone).issues) errors[field] ??= message;
  return errors;
}

/** A typed send time more than {@link PAST_GRACE_MS} before now (refused when scheduling; a draft may keep an old one) (never with "Send now", whose time is now). */
export function sendTimeIsPast(values: Pick<CampaignFormValues, 'scheduled_send_date' | 'send_now'>, timeZone: string, now: Date = new Date()): boolean {
  if (values.send_now) return false;
  const send = parseTimestamp(values.scheduled_send_date, timeZone);
  return send !== null && send.getTime() < now.getTime() - PAST_GRACE_MS;
}

/** The time rules alone, for what is already typed: an empty time is left to the required rule on submit. */
export function liveTimeErrors(values: CampaignFormValues, timeZone: string): Record<string, string> {
  const input = toCampaignInput(values);
  const errors: Record<string, string> = {};
  for (const { field, code, message } of checkCampaignTimes(input, timeZone).issues) {
    if (code !== 'invalid_timestamp') errors[field] ??= message;
  }
  return errors;
}

export function campaignResolver(timeZone: string): Resolver<CampaignFormValues, unknown, CampaignInput> {
  return async (values) => {
    const errors = campaignErrors(values, timeZone);
    if (Object.keys(errors).length === 0) return { values: CampaignInputSchema.parse(toCampaignInput(values)), errors: {} };
    const nested: FieldErrors<CampaignFormValues> = {};
    // A row's own message first, then its fields' messages inside it.
    for (const field of Object.keys(errors).sort((a, b) => a.length - b.length)) {
      const error: FieldError = { type: 'validate', message: errors[field] };
      set(nested, field, error);
    }
    return { values: {}, errors: nested };
  };
}
