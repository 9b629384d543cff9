/**
 * When the overview reads itself again: live while a campaign sends or is about to, and for a while
 * after (a campaign of five starts and finishes between two readings; its receipts come later).
 *
 * Seen red: without the LATE_START_MS bound (a campaign ten minutes overdue, its engine not running,
 * kept the page live), and with the window compared `<=` (still live once it had passed).
 */
import { describe, expect, it } from 'vitest';
import { overview } from './overview-fixtures';
import { IDLE_REFRESH_MS, isUnderWay, LIVE_REFRESH_MS, overviewRefreshInterval, RECEIPT_WINDOW_MS } from './overview-queries';

const RANGE = { from: '2026-03-02', to: '2026-03-31' };
/** 10:00 in London (BST) on 31 March 2026. */
const NOW = Date.parse('2026-03-31T09:00:00Z');
const due = (send_at: string) => overview(RANGE, { scheduled: [{ uuid: 'c1', name: 'Spring sale', send_at, recipients: 5 }] });

describe('the overview’s refresh', () => {
  it('is live while a campaign is due within a minute or started late by less than five', () => {
    expect(isUnderWay(due('2026-03-31 10:00:45'), NOW)).toBe(true);
    expect(isUnderWay(due('2026-03-31 09:56:00'), NOW)).toBe(true);
    expect(isUnderWay(due('2026-03-31 10:02:00'), NOW)).toBe(false);
    // An engine that is not running must not keep the page asking every few seconds for ever.
    expect(isUnderWay(due('2026-03-31 09:50:00'), NOW)).toBe(false);
    expect(overviewRefreshInterval(due('2026-03-31 10:00:45'), NOW)).toBe(LIVE_REFRESH_MS);
    expect(overviewRefreshInterval(due('2026-03-31 10:02:00'), NOW)).toBe(IDLE_REFRESH_MS);
  });

  it('stays live for the receipt window after a campaign was last seen under way, then slows down', () => {
    const quiet = overview(RANGE);
    expect(overviewRefreshInterval(quiet, NOW)).toBe(IDLE_REFRESH_MS);
    expect(overviewRefreshInterval(quiet, NOW, NOW - 3_000)).toBe(LIVE_REFRESH_MS);
    expect(overviewRefreshInterval(quiet, NOW, NOW - RECEIPT_WINDOW_MS + 1)).toBe(LIVE_REFRESH_MS);
    expect(overviewRefreshInterval(quiet, NOW, NOW - RECEIPT_WINDOW_MS)).toBe(IDLE_REFRESH_MS);
  });
});
