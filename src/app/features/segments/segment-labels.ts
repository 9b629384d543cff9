import type { FailureClass, FieldOp, SegmentEvent } from '../../../shared/contract/segments';
import type { ConditionType } from './segment-form-values';

/** The builder's words for what the contract names: the options of its selects. */

export const CONDITION_TYPE_LABELS: Record<ConditionType, string> = {
  field: 'Contact field',
  group: 'Contact group',
  country: 'Country of the number',
  event: 'Behaviour',
  group_of_conditions: 'Group of conditions',
};

export const FIELD_OP_LABELS: Record<FieldOp, string> = {
  equals: 'is',
  not_equals: 'is not',
  contains: 'contains',
  is_empty: 'is empty',
  is_not_empty: 'is not empty',
  gt: 'is greater than',
  lt: 'is less than',
  before: 'is a date before',
  after: 'is a date after',
  within_last_days: 'is a date within the last … days',
  within_next_days: 'is a date within the next … days',
  anniversary_within_days: 'comes round within the next … days (day and month, e.g. a birthday)',
};

export const MEMBERSHIP_LABELS: Record<'group' | 'country', Record<'in' | 'not_in', string>> = {
  group: { in: 'Is in the group', not_in: 'Is not in the group' },
  country: { in: 'Number is in', not_in: 'Number is not in' },
};

export const EVENT_LABELS: Record<SegmentEvent, string> = {
  received: 'Received a campaign',
  delivered: 'Was delivered a campaign',
  clicked: 'Clicked a link (as a person, not a bot)',
  not_clicked: 'Did not click a link',
  failed: 'Had a message fail',
  replied: 'Replied (sent a message)',
  opted_in: 'Opted in',
  converted: 'Placed an order (converted)',
};

export const FAILURE_CLASS_LABELS: Record<FailureClass, string> = {
  carrier: 'Refused by the carrier or provider',
  expired: 'Expired without a receipt',
  in_doubt: 'Hand-over interrupted (in doubt)',
  no_route: 'No route for its country',
};

/** Events that may name a campaign (the others are not about one campaign's messages). */
export const CAMPAIGN_EVENTS: ReadonlySet<SegmentEvent> = new Set(['received', 'delivered', 'clicked', 'not_clicked', 'failed', 'converted']);
