import type { Overview, OverviewDay, OverviewTotals } from '../../api/gen/types.gen';
import { addDays, daysIn, type DayRange } from './overview-period';

export const SPRING_SALE = '5d1c6a70-0000-4000-8000-0000000000c1';
export const SUMMER_SALE = '5d1c6a70-0000-4000-8000-0000000000c2';
export const AUTUMN_SALE = '5d1c6a70-0000-4000-8000-0000000000c3';
export const NEWSLETTER_GROUP = '5d1c6a70-0000-4000-8000-0000000000d1';

/** A quiet team: nothing sent, no price set. */
export function emptyTotals(overrides: Partial<OverviewTotals> = {}): OverviewTotals {
  return {
    sent: 0,
    delivered: 0,
    delivered_rate: null,
    failed: 0,
    unsent: 0,
    human_clicks: 0,
    unique_human_clicks: 0,
    click_rate: null,
    opt_outs: 0,
    campaign_opt_outs: 0,
    opt_out_rate: null,
    inbound_messages: 0,
    sms_parts: 0,
    estimated_cost: null,
    currency: 'EUR',
    ...overrides,
  };
}

/** Every day of the range with nothing sent, then `busy` days as given. */
export function overviewDays({ from, to }: DayRange, busy: Partial<Record<string, Omit<OverviewDay, 'date'>>> = {}): OverviewDay[] {
  return Array.from({ length: daysIn({ from, to }) }, (_, index) => {
    const date = addDays(from, index);
    return { date, sent: 0, delivered: 0, failed: 0, ...busy[date] };
  });
}

/** The answer of GET /overview for the range, with nothing under way; overrides replace whole fields. */
export function overview(range: DayRange, overrides: Partial<Overview> = {}): Overview {
  return {
    from: range.from,
    to: range.to,
    time_zone: 'Europe/London',
    totals: emptyTotals(),
    days: overviewDays(range),
    sending_now: [],
    scheduled: [],
    awaiting_approval: [],
    recent_imports: [],
    recent_report_jobs: [],
    ...overrides,
  };
}
