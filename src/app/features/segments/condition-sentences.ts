import type { Condition, FailureClass, FieldOp, LeafCondition, SegmentEvent, SegmentMatch } from '../../../shared/contract/segments';
import { countryName } from '../../../shared/phone/phone-countries';
import { formatDay, formatNumber, plural } from '../../lib/format';

/**
 * A segment's conditions as the marketer reads them: one English sentence each ("First name contains
 * “ann”", "Clicked a link in “Summer sale” in the last 7 days"). Numbers and dates are written in the
 * reader's language (lib/format.ts); the words are the dashboard's, English.
 */

/** The names a sentence needs that the condition holds only as uuids; undefined when not known (deleted, or not loaded yet). */
export interface ConditionNames {
  group: (uuid: string) => string | undefined;
  campaign: (uuid: string) => string | undefined;
}

/** How many countries a sentence names before it counts the rest. */
const SHOWN_COUNTRIES = 5;

/** A field as a person writes it: `first_name` → "First name" (the rest of the name as it was). */
export function fieldLabel(field: string): string {
  const spaced = field
    .replace(/[_.-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return spaced ? spaced.charAt(0).toUpperCase() + spaced.slice(1) : field;
}

const quoted = (text: string) => `“${text}”`;

/** "a", "a or b", "a, b or c": English alternatives. */
function alternatives(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

const days = (count: number) => (count === 1 ? 'day' : plural(count, 'day', 'days'));

function asNumber(value: string | number | undefined): number {
  return typeof value === 'number' ? value : Number(value?.trim());
}

/** The value as the sentence shows it: a number in the reader's language, a date as "3 Mar 2026", text in quotes. */
function fieldValue(op: FieldOp, value: string | number | undefined): string {
  const text = value === undefined ? '' : String(value);
  switch (op) {
    case 'gt':
    case 'lt':
      return Number.isFinite(asNumber(value)) && text.trim() !== '' ? formatNumber(asNumber(value)) : quoted(text);
    case 'before':
    case 'after':
      return formatDay(text, true);
    default:
      return quoted(text);
  }
}

const FIELD_PHRASES: Record<FieldOp, (value: string, count: number) => string> = {
  equals: (value) => `is ${value}`,
  not_equals: (value) => `is not ${value}`,
  contains: (value) => `contains ${value}`,
  is_empty: () => 'is empty',
  is_not_empty: () => 'is not empty',
  gt: (value) => `is greater than ${value}`,
  lt: (value) => `is less than ${value}`,
  before: (value) => `is before ${value}`,
  after: (value) => `is after ${value}`,
  within_last_days: (_value, count) => `is within the last ${days(count)}`,
  within_next_days: (_value, count) => `is within the next ${days(count)}`,
  // The day and month come round again (a birthday, an anniversary), whatever the year.
  anniversary_within_days: (_value, count) => `within the next ${days(count)}`,
};

/** How the parts of a failure class read after "fail": the reasons the contract names. */
export const FAILURE_CLASS_PHRASES: Record<FailureClass, string> = {
  carrier: 'refused by the carrier or provider',
  expired: 'expired without a receipt',
  in_doubt: 'hand-over interrupted',
  no_route: 'no route for its country',
};

function campaignPhrase(uuid: string | undefined, names: ConditionNames): string {
  if (uuid === undefined) return 'any campaign';
  const name = names.campaign(uuid);
  return name === undefined ? 'a campaign that was not found' : quoted(name);
}

function eventPhrase(event: SegmentEvent, campaign: string, condition: { value_gt?: number; reason_class?: FailureClass }): string {
  switch (event) {
    case 'received':
      return `Received ${campaign}`;
    case 'delivered':
      return `Was delivered ${campaign}`;
    case 'clicked':
      return `Clicked a link in ${campaign}`;
    case 'not_clicked':
      return `Did not click a link in ${campaign}`;
    case 'failed': {
      const reason = condition.reason_class ? ` (${FAILURE_CLASS_PHRASES[condition.reason_class]})` : '';
      return `Had a message of ${campaign} fail${reason}`;
    }
    case 'replied':
      return 'Replied';
    case 'opted_in':
      return 'Opted in';
    case 'converted': {
      const credited = campaign === 'any campaign' ? 'Placed an order' : `Placed an order credited to ${campaign}`;
      return condition.value_gt === undefined ? credited : `${credited} worth more than ${formatNumber(condition.value_gt)}`;
    }
  }
}

/** One condition (not a group of them) as a sentence. */
export function leafSentence(condition: LeafCondition, names: ConditionNames): string {
  switch (condition.type) {
    case 'field': {
      const count = asNumber(condition.value);
      return `${fieldLabel(condition.field)} ${FIELD_PHRASES[condition.op](fieldValue(condition.op, condition.value), count)}`;
    }
    case 'group': {
      const name = names.group(condition.group_uuid);
      const group = name === undefined ? 'a group that was not found' : `the group ${quoted(name)}`;
      return condition.op === 'in' ? `Is in ${group}` : `Is not in ${group}`;
    }
    case 'country': {
      const countries = condition.values.map(countryName);
      const shown =
        countries.length > SHOWN_COUNTRIES + 1 ? [...countries.slice(0, SHOWN_COUNTRIES), `${countries.length - SHOWN_COUNTRIES} other countries`] : countries;
      return `Number is ${condition.op === 'in' ? 'in' : 'not in'} ${alternatives(shown)}`;
    }
    case 'event': {
      const what = eventPhrase(condition.event, campaignPhrase(condition.campaign_uuid, names), condition);
      if (condition.within_days === undefined) return what;
      // "Opted in in the last 30 days" stumbles.
      return `${what} ${condition.event === 'opted_in' ? 'during' : 'in'} the last ${days(condition.within_days)}`;
    }
  }
}

/** "All of" or "Any of": how a group of conditions begins. */
export function matchLead(match: SegmentMatch): string {
  return match === 'all' ? 'All of' : 'Any of';
}

/** A condition as one sentence; a nested group reads "Any of: …; …" with its own sentences. */
export function conditionSentence(condition: Condition, names: ConditionNames): string {
  if (condition.type !== 'group_of_conditions') return leafSentence(condition, names);
  return `${matchLead(condition.match)}: ${condition.conditions.map((inner) => leafSentence(inner, names)).join('; ')}`;
}

/** What a segment picks, before its sentences: "Contacts who match all of these:". */
export function segmentLead(match: SegmentMatch): string {
  return `Contacts who match ${match} of these:`;
}
