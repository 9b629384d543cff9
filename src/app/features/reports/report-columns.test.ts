import { describe, expect, it } from 'vitest';
import { REPORT_COLUMNS, REPORT_TYPES } from '../../../shared/contract';
import { COLUMNS_NOT_SHOWN, csvColumnsOf, REPORT_DEFINITIONS } from './report-columns';
import { describeFailureReason, fieldPairs, formatOffsetTime, formatRate, formatReportTime, rowRange } from './report-format';

describe('the report tables', () => {
  it.each(REPORT_TYPES)('show every CSV column of the %s report once, but those the same on every row', (type) => {
    const shown = REPORT_DEFINITIONS[type].columns.flatMap((column) => csvColumnsOf(column));
    const csv = REPORT_COLUMNS[type] as string[];
    expect(shown.filter((key) => csv.includes(key)).sort()).toEqual(csv.filter((key) => !COLUMNS_NOT_SHOWN[type]?.includes(key)).sort());
    expect(new Set(shown).size).toBe(shown.length);
  });

  it('lead with the recipient’s number and end with identifiers, never with a uuid', () => {
    for (const type of REPORT_TYPES) {
      const kinds = REPORT_DEFINITIONS[type].columns.map((column) => column.kind);
      expect(kinds[0], type).not.toBe('id');
      expect(kinds.indexOf('id') === -1 || kinds.slice(kinds.indexOf('id')).every((kind) => kind === 'id'), type).toBe(true);
    }
    expect(REPORT_DEFINITIONS.delivery.columns.map((column) => column.header)).toEqual([
      'Recipient',
      'Status',
      'Sent at',
      'Delivered at',
      'Failure reason',
      'Message',
      'Message ID',
    ]);
  });
});

describe('report formatting', () => {
  it('pairs custom field names with their values by position', () => {
    expect(fieldPairs('first_name,city', 'Ada,London')).toEqual([
      { name: 'first_name', value: 'Ada' },
      { name: 'city', value: 'London' },
    ]);
    expect(fieldPairs('first_name,note', 'Ada,tea, no sugar')).toEqual([
      { name: 'first_name', value: 'Ada' },
      { name: 'note', value: 'tea, no sugar' },
    ]);
    expect(fieldPairs('first_name,city', 'Ada')).toEqual([
      { name: 'first_name', value: 'Ada' },
      { name: 'city', value: '' },
    ]);
    expect(fieldPairs('', '')).toEqual([]);
  });

  it('writes times readably, keeping the expiry’s own offset rather than the browser’s zone', () => {
    expect(formatReportTime('2026-03-02 09:00:05')).toBe('2 Mar 2026, 09:00:05');
    expect(formatReportTime('')).toBe('');
    expect(formatOffsetTime('2026-07-03T09:00:00+0100')).toBe('3 Jul 2026, 09:00 (UTC+01:00)');
    expect(formatOffsetTime('not a date')).toBe('not a date');
  });

  it('writes rates as percentages, and the engine’s reasons in words', () => {
    expect(formatRate(300 / 950)).toBe('31.6%');
    expect(formatRate(1)).toBe('100%');
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(null)).toBe('—');
    // What happened never reads 0% or 100% (issue 32: one opt-out of 5,000 delivered read "0%").
    expect(formatRate(1 / 5000)).toBe('<0.1%');
    expect(formatRate(6 / 5000)).toBe('0.1%');
    expect(formatRate(4999 / 5000)).toBe('>99.9%');
    expect(describeFailureReason('opted_out')).toBe('Opted out');
    expect(describeFailureReason('invalid_number')).toBe('Invalid number');
    expect(describeFailureReason('UNDELIV err:001')).toBe('UNDELIV err:001');
  });

  it('says which rows are on screen', () => {
    expect(rowRange({ from: 16, to: 30, total: 1234 })).toBe('Rows 16–30 of 1,234');
    expect(rowRange({ from: null, to: null, total: 40 })).toBe('No rows on this page, of 40');
  });
});
