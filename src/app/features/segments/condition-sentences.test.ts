/**
 * Every condition type and op of the contract reads as a sentence (en-GB, the tests' browser). The
 * `satisfies Record<…>` tables below fail to compile when the contract gains an op or an event that
 * has no sentence here; a missing entry in FIELD_PHRASES fails the typecheck of the module itself.
 */
import { describe, expect, it } from 'vitest';
import {
  FAILURE_CLASSES,
  FIELD_OPS,
  SEGMENT_EVENTS,
  type Condition,
  type FailureClass,
  type FieldOp,
  type SegmentEvent,
} from '../../../shared/contract/segments';
import { conditionSentence, fieldLabel, segmentLead, type ConditionNames } from './condition-sentences';

const VIP = '11111111-1111-4111-8111-111111111111';
const SUMMER = '22222222-2222-4222-8222-222222222222';
const GONE = '33333333-3333-4333-8333-333333333333';

const names: ConditionNames = {
  group: (uuid) => (uuid === VIP ? 'VIP' : undefined),
  campaign: (uuid) => (uuid === SUMMER ? 'Summer sale' : undefined),
};
const sentence = (condition: Condition) => conditionSentence(condition, names);

describe('field conditions', () => {
  const cases = {
    equals: [{ field: 'first_name', value: 'Ann' }, 'First name is “Ann”'],
    not_equals: [{ field: 'city', value: 'Leeds' }, 'City is not “Leeds”'],
    contains: [{ field: 'first_name', value: 'ann' }, 'First name contains “ann”'],
    is_empty: [{ field: 'email' }, 'Email is empty'],
    is_not_empty: [{ field: 'email' }, 'Email is not empty'],
    gt: [{ field: 'orders', value: 1250.5 }, 'Orders is greater than 1,250.5'],
    lt: [{ field: 'age', value: '30' }, 'Age is less than 30'],
    before: [{ field: 'signup_date', value: '2026-03-03' }, 'Signup date is before 3 Mar 2026'],
    after: [{ field: 'signup_date', value: '2025-12-31' }, 'Signup date is after 31 Dec 2025'],
    within_last_days: [{ field: 'last_order', value: 7 }, 'Last order is within the last 7 days'],
    within_next_days: [{ field: 'renewal-date', value: '30' }, 'Renewal date is within the next 30 days'],
    anniversary_within_days: [{ field: 'birthday', value: 14 }, 'Birthday within the next 14 days'],
  } satisfies Record<FieldOp, [{ field: string; value?: string | number }, string]> as Record<FieldOp, [{ field: string; value?: string | number }, string]>;

  it.each(FIELD_OPS.map((op) => [op, ...cases[op]] as const))('%s', (op, { field, value }, expected) => {
    expect(sentence({ type: 'field', field, op, value })).toBe(expected);
  });

  it('says one day, not 1 days', () => {
    expect(sentence({ type: 'field', field: 'last_order', op: 'within_last_days', value: 1 })).toBe('Last order is within the last day');
    expect(sentence({ type: 'field', field: 'birthday', op: 'anniversary_within_days', value: '1' })).toBe('Birthday within the next day');
  });

  it('writes a field name as a person would, keeping its own capitals', () => {
    expect(fieldLabel('first_name')).toBe('First name');
    expect(fieldLabel('VIP_level')).toBe('VIP level');
    expect(fieldLabel('loyalty.tier')).toBe('Loyalty tier');
    expect(fieldLabel('__')).toBe('__');
  });

  it('quotes a number typed for a text op, and text typed where a number belongs', () => {
    expect(sentence({ type: 'field', field: 'code', op: 'equals', value: 42 })).toBe('Code is “42”');
    expect(sentence({ type: 'field', field: 'age', op: 'gt', value: 'old' })).toBe('Age is greater than “old”');
  });
});

describe('group conditions', () => {
  it('names the group', () => {
    expect(sentence({ type: 'group', op: 'in', group_uuid: VIP })).toBe('Is in the group “VIP”');
    expect(sentence({ type: 'group', op: 'not_in', group_uuid: VIP })).toBe('Is not in the group “VIP”');
  });

  it('says so when the group is not known', () => {
    expect(sentence({ type: 'group', op: 'in', group_uuid: GONE })).toBe('Is in a group that was not found');
  });
});

describe('country conditions', () => {
  it('names the countries as alternatives', () => {
    expect(sentence({ type: 'country', op: 'in', values: ['GB', 'IE'] })).toBe('Number is in United Kingdom or Ireland');
    expect(sentence({ type: 'country', op: 'not_in', values: ['FR'] })).toBe('Number is not in France');
    expect(sentence({ type: 'country', op: 'in', values: ['DE', 'AT', 'CH'] })).toBe('Number is in Germany, Austria or Switzerland');
  });

  it('counts the countries past five', () => {
    expect(sentence({ type: 'country', op: 'in', values: ['GB', 'IE', 'FR', 'DE', 'ES', 'PT', 'IT'] })).toBe(
      'Number is in United Kingdom, Ireland, France, Germany, Spain or 2 other countries',
    );
    // Six are all named: "1 other countries" would say less in as many words.
    expect(sentence({ type: 'country', op: 'in', values: ['GB', 'IE', 'FR', 'DE', 'ES', 'PT'] })).toBe(
      'Number is in United Kingdom, Ireland, France, Germany, Spain or Portugal',
    );
  });
});

describe('event conditions', () => {
  const cases = {
    received: ['Received “Summer sale”', 'Received any campaign'],
    delivered: ['Was delivered “Summer sale”', 'Was delivered any campaign'],
    clicked: ['Clicked a link in “Summer sale”', 'Clicked a link in any campaign'],
    not_clicked: ['Did not click a link in “Summer sale”', 'Did not click a link in any campaign'],
    failed: ['Had a message of “Summer sale” fail', 'Had a message of any campaign fail'],
    replied: [null, 'Replied'],
    opted_in: [null, 'Opted in'],
    converted: ['Placed an order credited to “Summer sale”', 'Placed an order'],
  } satisfies Record<SegmentEvent, [string | null, string]>;

  it.each(SEGMENT_EVENTS.map((event) => [event, ...cases[event]] as const))('%s', (event, withCampaign, withoutCampaign) => {
    if (withCampaign !== null) expect(sentence({ type: 'event', event, campaign_uuid: SUMMER })).toBe(withCampaign);
    expect(sentence({ type: 'event', event })).toBe(withoutCampaign);
  });

  it('adds the window of days', () => {
    expect(sentence({ type: 'event', event: 'clicked', campaign_uuid: SUMMER, within_days: 7 })).toBe('Clicked a link in “Summer sale” in the last 7 days');
    expect(sentence({ type: 'event', event: 'replied', within_days: 1 })).toBe('Replied in the last day');
    expect(sentence({ type: 'event', event: 'opted_in', within_days: 30 })).toBe('Opted in during the last 30 days');
  });

  it('says what a conversion was worth', () => {
    expect(sentence({ type: 'event', event: 'converted', value_gt: 50, within_days: 14 })).toBe('Placed an order worth more than 50 in the last 14 days');
    expect(sentence({ type: 'event', event: 'converted', campaign_uuid: SUMMER, value_gt: 0 })).toBe(
      'Placed an order credited to “Summer sale” worth more than 0',
    );
  });

  const reasons = {
    carrier: 'Had a message of any campaign fail (refused by the carrier or provider)',
    expired: 'Had a message of any campaign fail (expired without a receipt)',
    in_doubt: 'Had a message of any campaign fail (hand-over interrupted)',
    no_route: 'Had a message of any campaign fail (no route for its country)',
  } satisfies Record<FailureClass, string>;

  it.each(FAILURE_CLASSES.map((reason) => [reason, reasons[reason]] as const))('failed with the reason class %s', (reason_class, expected) => {
    expect(sentence({ type: 'event', event: 'failed', reason_class })).toBe(expected);
  });

  it('says so when the campaign is not known', () => {
    expect(sentence({ type: 'event', event: 'received', campaign_uuid: GONE })).toBe('Received a campaign that was not found');
  });
});

describe('groups of conditions', () => {
  it('reads "any of" or "all of" and each inner sentence', () => {
    expect(
      sentence({
        type: 'group_of_conditions',
        match: 'any',
        conditions: [
          { type: 'field', field: 'first_name', op: 'contains', value: 'ann' },
          { type: 'group', op: 'in', group_uuid: VIP },
        ],
      }),
    ).toBe('Any of: First name contains “ann”; Is in the group “VIP”');
    expect(
      sentence({
        type: 'group_of_conditions',
        match: 'all',
        conditions: [
          { type: 'event', event: 'clicked', within_days: 7 },
          { type: 'event', event: 'converted', within_days: 7 },
        ],
      }),
    ).toBe('All of: Clicked a link in any campaign in the last 7 days; Placed an order in the last 7 days');
  });

  it('leads the segment with its match', () => {
    expect(segmentLead('all')).toBe('Contacts who match all of these:');
    expect(segmentLead('any')).toBe('Contacts who match any of these:');
  });
});
