import { describe, expect, it } from 'vitest';
import { REPORT_COLUMNS, REPORT_TYPES } from '../../../shared/contract';
import { csvColumnsOf, REPORT_DEFINITIONS } from './report-columns';
import { fieldPairs, formatOffsetTime, formatReportTime, rowRange } from './report-format';

describe('the report tables', () => {
  it.each(REPORT_TYPES)('show every CSV column of the %s report once, in the CSV’s order', (type) => {
    const shown = REPORT_DEFINITIONS[type].columns.flatMap((column) => csvColumnsOf(column));
    expect(shown).toEqual(REPORT_COLUMNS[type]);
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

  it('says which rows are on screen', () => {
    expect(rowRange({ from: 16, to: 30, total: 1234 })).toBe('Rows 16–30 of 1,234');
    expect(rowRange({ from: null, to: null, total: 40 })).toBe('No rows on this page, of 40');
  });
});
