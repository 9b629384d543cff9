/**
 * The calendar (issue 35, point 5): on a wide screen, a month of days as weeks, each named with its
 * date and count; on a phone, where seven columns do not fit, only the days with campaigns (and today)
 * as a list, so nothing is cut off or scrolled sideways. Drafts are listed apart either way.
 *
 * Seen red: with the page always laying out the grid (the phone's list had every day of the month).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { campaign, ZONE } from '../../features/campaigns/campaign-fixtures';
import { serviceTimestamp } from '../../lib/service-zone';
import { currentUser } from '../../testing/current-user';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import CalendarPage from './calendar.page';

const realMatchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = realMatchMedia;
});

/** A phone: the page's narrow-screen query matches. */
function asPhone() {
  window.matchMedia = (query: string) => ({ ...realMatchMedia(query), matches: query.includes('max-width') });
}

function serve() {
  signIn();
  const today = serviceTimestamp(ZONE).slice(0, 10);
  const campaigns = [
    campaign({ uuid: '0e6f1d2c-0000-4000-8000-000000000001', name: 'Autumn sale', scheduled_send_date: `${today} 10:00:00`, status: 2 }),
    campaign({ uuid: '0e6f1d2c-0000-4000-8000-000000000002', name: 'Winter preview', scheduled_send_date: `${today} 18:30:00`, status: 0 }),
    campaign({ uuid: '0e6f1d2c-0000-4000-8000-000000000003', name: 'Spring teaser', scheduled_send_date: `${today} 12:00:00`, is_draft: true }),
  ];
  mockApi((_request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    if (path === '/users/me') return json({ data: currentUser('editor', { app_timezone: ZONE }) });
    if (path === '/campaigns') return json(page(campaigns));
    return json(page([]));
  });
}

describe('the calendar', () => {
  it('lays out the month as weeks of days on a wide screen', async () => {
    serve();
    render(<CalendarPage />, { route: '/calendar', role: 'editor' });
    const days = await screen.findByRole('list', { name: /^Campaigns, / });
    expect(within(days).getAllByRole('listitem').length).toBeGreaterThanOrEqual(28);
    expect(await within(days).findByRole('link', { name: 'Autumn sale' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Drafts' })).getByRole('link', { name: 'Spring teaser' })).toBeInTheDocument();
  });

  it('lists only the days with campaigns on a phone', async () => {
    asPhone();
    serve();
    render(<CalendarPage />, { route: '/calendar', role: 'editor' });
    const days = await screen.findByRole('list', { name: /^Campaigns, / });
    const today = await within(days).findByRole('listitem', { name: /: 2 campaigns$/ });
    expect(within(days).getAllByRole('listitem')).toEqual([today]);
    expect(within(today).getByRole('link', { name: 'Autumn sale' })).toBeInTheDocument();
    expect(within(today).getByRole('link', { name: 'Winter preview' })).toBeInTheDocument();
    expect(within(days).queryByRole('link', { name: 'Spring teaser' })).not.toBeInTheDocument();
  });
});
