/**
 * The Overview page (issue 21, point 1): the period lives in the URL and is what the service is
 * asked for (the days counted in APP_TIMEZONE, not the browser's zone), the figures read as
 * numbers, percentages and money with "—" where there is nothing to show, and the lists link to
 * what they name, refresh themselves while a campaign sends, and say something useful when empty.
 *
 * Seen red: with periodRange counting back `period.days` days instead of `days - 1` (the 30 days
 * were 31: from=2026-03-01), with todayIn reading the browser's day (2026-03-30, the day before
 * London's), with formatRate(null) left to Intl ("0%" delivered of nothing), with the refresh
 * interval fixed at IDLE_REFRESH_MS (the progress bar stayed at 40%), and without the receipt
 * window (the last receipts waited a minute: "0 delivered").
 *
 * Issue 32, seen red: with the figures as before, Failed read "230 · 1,200 never sent" (stopped and
 * expired messages under Failed) and the opt-outs "3 · opt-out rate 0%" (rate of campaign opt-outs
 * rounded, or of none, beside opt-outs that happened).
 */
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Overview } from '../../api/gen/types.gen';
import { AUTUMN_SALE, emptyTotals, NEWSLETTER_GROUP, overview, overviewDays, SPRING_SALE, SUMMER_SALE } from '../../features/overview/overview-fixtures';
import { IDLE_REFRESH_MS, LIVE_REFRESH_MS, RECEIPT_WINDOW_MS } from '../../features/overview/overview-queries';
import { apiError, json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import OverviewPage from './overview.page';

/** 23:30 UTC on 30 March 2026 is 00:30 on 31 March in London (BST): "today" is the 31st there. */
const NOW = new Date('2026-03-30T23:30:00Z');
const TODAY = '2026-03-31';

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{pathname + search}</output>;
}

/** Answers GET /overview with `answer(from, to)`; returns the mock, to read the periods asked for. */
function serve(answer: (range: { from: string; to: string }) => Overview = (range) => overview(range)) {
  signIn();
  return mockApi((_request, url) => {
    if (url.pathname !== '/api/2.0/overview') return apiError(404, 'Unexpected request');
    const range = { from: url.searchParams.get('from') ?? '', to: url.searchParams.get('to') ?? '' };
    return json({ data: answer(range) });
  });
}

/** The periods asked of the service, in order. */
function periodsAsked(fetchMock: ReturnType<typeof mockApi>) {
  return fetchMock.mock.calls.map(([request]) => Object.fromEntries(new URL(request.url).searchParams));
}

function renderAt(route: string) {
  return render(
    <Routes>
      <Route
        path="/"
        element={
          <>
            <OverviewPage />
            <LocationProbe />
          </>
        }
      />
    </Routes>,
    // Every role reads the overview; the signed-in user's answer names the service's zone (Europe/London).
    { route, role: 'viewer' },
  );
}

const location = () => screen.getByTestId('location').textContent;

/** The tile of a figure: its label (dt), number and detail (dd). */
function figure(label: string) {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.parentElement!;
}

describe('the Overview page', { timeout: 20_000 }, () => {
  beforeEach(() => {
    // Only the clock: React Query's and user-event's timers stay real.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => void vi.useRealTimers());

  describe('asks for the period in the URL', () => {
    it.each([
      { route: '/', from: '2026-03-02', to: TODAY, pressed: '30 days' },
      { route: '/?days=7', from: '2026-03-25', to: TODAY, pressed: '7 days' },
      { route: '/?days=90', from: '2026-01-01', to: TODAY, pressed: '90 days' },
      // Neither a length the chooser offers nor a real day: the default 30 days.
      { route: '/?days=12&from=2026-02-30&to=2026-03-01', from: '2026-03-02', to: TODAY, pressed: '30 days' },
    ])('$route: from $from to $to', async ({ route, from, to, pressed }) => {
      const fetchMock = serve();
      renderAt(route);

      expect(await screen.findByRole('heading', { name: /^Figures for/ })).toBeInTheDocument();
      expect(periodsAsked(fetchMock)).toEqual([{ from, to }]);
      expect(screen.getByRole('radio', { name: pressed })).toBeChecked();
    });

    it('a custom range: both days as written, no length chosen', async () => {
      const fetchMock = serve();
      renderAt('/?from=2025-12-28&to=2026-01-03');

      expect(await screen.findByRole('heading', { name: 'Figures for 28 Dec 2025 – 3 Jan 2026' })).toBeInTheDocument();
      expect(periodsAsked(fetchMock)).toEqual([{ from: '2025-12-28', to: '2026-01-03' }]);
      expect(screen.getByRole('button', { name: 'Days of the period' })).toHaveTextContent('28 Dec 2025 – 3 Jan 2026');
      expect(screen.getByText('Days in Europe/London.')).toBeInTheDocument();
      for (const name of ['7 days', '30 days', '90 days']) expect(screen.getByRole('radio', { name })).not.toBeChecked();
    });
  });

  it('writes a chosen length to the URL and asks for it', async () => {
    const fetchMock = serve();
    const { user } = renderAt('/');
    await screen.findByRole('heading', { name: /^Figures for/ });

    await user.click(screen.getByRole('radio', { name: '7 days' }));

    await waitFor(() => expect(location()).toBe('/?days=7'));
    await waitFor(() => expect(periodsAsked(fetchMock).at(-1)).toEqual({ from: '2026-03-25', to: TODAY }));
    expect(await screen.findByRole('heading', { name: 'Figures for 25 Mar – 31 Mar 2026' })).toBeInTheDocument();
  });

  it('writes days picked on the calendar to the URL and asks for them', async () => {
    const fetchMock = serve();
    const { user } = renderAt('/?days=7');
    await screen.findByRole('heading', { name: /^Figures for/ });

    await user.click(screen.getByRole('button', { name: 'Days of the period' }));
    await user.click(await screen.findByRole('button', { name: '10 March 2026' }));
    await user.click(screen.getByRole('button', { name: '20 March 2026' }));

    await waitFor(() => expect(location()).toBe('/?from=2026-03-10&to=2026-03-20'));
    await waitFor(() => expect(periodsAsked(fetchMock).at(-1)).toEqual({ from: '2026-03-10', to: '2026-03-20' }));
    expect(await screen.findByRole('heading', { name: 'Figures for 10 Mar – 20 Mar 2026' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '7 days' })).not.toBeChecked();
  });

  it('shows counts with thousands separators, rates as percentages and the cost in its currency', async () => {
    serve((range) =>
      overview(range, {
        totals: emptyTotals({
          sent: 12345,
          delivered: 11915,
          delivered_rate: 11915 / 12345,
          failed: 230,
          unsent: 1200,
          unique_human_clicks: 1042,
          click_rate: 1042 / 11915,
          opt_outs: 3,
          campaign_opt_outs: 3,
          opt_out_rate: 0.00025,
          inbound_messages: 4096,
          sms_parts: 24690,
          estimated_cost: 1234.5,
          currency: 'EUR',
        }),
      }),
    );
    renderAt('/');
    await screen.findByRole('heading', { name: /^Figures for/ });

    // Messages never sent (stopped, expired, opted out) are not under Failed.
    expect(figure('Messages sent')).toHaveTextContent('Messages sent12,345handed to the carrier; 1,200 never sent');
    expect(figure('Delivered')).toHaveTextContent('Delivered96.5%11,915 delivered');
    expect(figure('Failed')).toHaveTextContent(/^Failed230refused or undelivered$/);
    expect(figure('Unique human clicks')).toHaveTextContent('Unique human clicks1,042click rate 8.7%');
    expect(figure('Opt-outs')).toHaveTextContent('Opt-outs3opt-out rate <0.1%');
    expect(figure('Inbound messages')).toHaveTextContent('Inbound messages4,096');
    expect(figure('SMS parts')).toHaveTextContent('SMS parts24,690');
    expect(figure('Estimated cost')).toHaveTextContent('Estimated cost€1,234.5024,690 parts at the team’s price');
    expect(screen.queryByRole('link', { name: 'Set a price in team settings' })).not.toBeInTheDocument();
  });

  it('never shows an opt-out rate of 0% beside opt-outs: the rate says which of them it counts', async () => {
    // 2 opt-outs after a campaign over 9,000 delivered, 1 by hand; then only opt-outs by hand.
    const totalsOf = [
      emptyTotals({ delivered: 9000, opt_outs: 3, campaign_opt_outs: 2, opt_out_rate: 2 / 9000 }),
      emptyTotals({ delivered: 9000, opt_outs: 2, campaign_opt_outs: 0, opt_out_rate: 0 }),
    ];
    for (const totals of totalsOf) {
      serve((range) => overview(range, { totals }));
      const { unmount } = renderAt('/');
      await screen.findByRole('heading', { name: /^Figures for/ });
      const text = figure('Opt-outs').textContent ?? '';
      expect(text).not.toMatch(/\b0%/);
      expect(text).toBe(totals.campaign_opt_outs ? 'Opt-outs3opt-out rate <0.1% (2 after a campaign)' : 'Opt-outs2none after a campaign');
      unmount();
    }
  });

  it('shows "—" for rates with nothing to divide by and a cost without a price, with the way to set one', async () => {
    serve((range) => overview(range, { totals: emptyTotals({ sms_parts: 0, estimated_cost: null }) }));
    renderAt('/');
    await screen.findByRole('heading', { name: /^Figures for/ });

    expect(figure('Messages sent')).toHaveTextContent('Messages sent0');
    expect(figure('Delivered')).toHaveTextContent('Delivered—0 delivered');
    expect(figure('Unique human clicks')).toHaveTextContent('click rate —');
    expect(figure('Opt-outs')).toHaveTextContent('opt-out rate —');
    expect(figure('Estimated cost')).toHaveTextContent('Estimated cost—');
    expect(within(figure('Estimated cost')).getByRole('link', { name: 'Set a price in team settings' })).toHaveAttribute('href', '/team');
  });

  it('draws sends and deliveries per day, named by a sentence and read out as a table', async () => {
    serve((range) =>
      overview(range, {
        totals: emptyTotals({ sent: 1500, delivered: 1400 }),
        days: overviewDays(range, {
          '2026-03-10': { sent: 1000, delivered: 950, failed: 20 },
          '2026-03-20': { sent: 500, delivered: 450, failed: 10 },
        }),
      }),
    );
    renderAt('/');

    const chart = await screen.findByRole('region', { name: 'Sent and delivered per day' });
    expect(
      within(chart).getByRole('img', { name: '1,500 sent and 1,400 delivered by day from 2 Mar to 31 Mar; the most sent, 1,000, on 10 Mar' }),
    ).toBeInTheDocument();
    const table = within(chart).getByRole('table', { name: 'Messages by day' });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    expect(within(table).getByRole('row', { name: '10 Mar 1,000 950 20' })).toBeInTheDocument();
  });

  it('says so when nothing was sent in the period', async () => {
    serve();
    renderAt('/');

    const chart = await screen.findByRole('region', { name: 'Sent and delivered per day' });
    expect(chart).toHaveTextContent(/Nothing was sent in this period/);
    expect(within(chart).queryByRole('img')).not.toBeInTheDocument();
  });

  it('lists what is under way, each linked to its page', async () => {
    serve((range) =>
      overview(range, {
        sending_now: [
          {
            uuid: SPRING_SALE,
            name: 'Spring sale',
            recipients: 2000,
            processed: 840,
            delivered: 800,
            percent: 42,
            started_at: '2026-03-31 00:10:00',
            paused: false,
          },
        ],
        scheduled: [{ uuid: SUMMER_SALE, name: 'Summer sale', send_at: '2026-04-02 09:00:00', recipients: 1234 }],
        awaiting_approval: [
          { uuid: AUTUMN_SALE, name: 'Autumn sale', send_at: '2026-04-10 09:00:00', requested_at: '2026-03-30 16:45:00', requested_by: 'Omar Okafor' },
        ],
        recent_imports: [
          {
            uuid: '5d1c6a70-0000-4000-8000-0000000000e1',
            contact_group_uuid: NEWSLETTER_GROUP,
            contact_group_name: 'Newsletter',
            file_name: 'march.csv',
            status: 'completed',
            rows_total: 1500,
            contacts_added: 1480,
            created_at: '2026-03-29 12:00:00',
          },
        ],
        recent_report_jobs: [
          {
            uuid: '5d1c6a70-0000-4000-8000-0000000000f1',
            campaign_uuid: SPRING_SALE,
            campaign_name: 'Spring sale',
            type: 'clicks',
            status: 'mailing',
            created_at: '2026-03-30 18:00:00',
          },
        ],
      }),
    );
    renderAt('/');

    const sending = await screen.findByRole('region', { name: 'Sending now' });
    expect(within(sending).getByRole('link', { name: 'Spring sale' })).toHaveAttribute('href', `/campaigns/${SPRING_SALE}`);
    expect(within(sending).getByRole('progressbar', { name: 'Progress of Spring sale' })).toHaveAttribute('aria-valuenow', '42');
    expect(sending).toHaveTextContent('42%');
    expect(sending).toHaveTextContent('840 of 2,000 messages sent or settled · 800 delivered · started 31 Mar 2026, 00:10');
    expect(within(sending).getByText(/Live · refreshes every 3 s/)).toBeInTheDocument();

    const scheduled = screen.getByRole('region', { name: 'Next scheduled' });
    expect(within(scheduled).getByRole('link', { name: 'Summer sale' })).toHaveAttribute('href', `/campaigns/${SUMMER_SALE}`);
    expect(scheduled).toHaveTextContent('Sends 2 Apr 2026, 09:00 · 1,234 recipients');

    const approvals = screen.getByRole('region', { name: 'Awaiting approval' });
    expect(within(approvals).getByRole('link', { name: 'Autumn sale' })).toHaveAttribute('href', `/campaigns/${AUTUMN_SALE}`);
    expect(approvals).toHaveTextContent('Asked by Omar Okafor on 30 Mar 2026, 16:45 · due 10 Apr 2026, 09:00');

    const imports = screen.getByRole('region', { name: 'Recent imports' });
    expect(within(imports).getByRole('link', { name: 'Newsletter' })).toHaveAttribute('href', `/contact-groups/${NEWSLETTER_GROUP}`);
    expect(imports).toHaveTextContent('Completed');
    expect(imports).toHaveTextContent('1,500 rows, 1,480 added · march.csv · 29 Mar 2026, 12:00');

    const jobs = screen.getByRole('region', { name: 'Your report e-mails' });
    expect(within(jobs).getByRole('link', { name: 'Spring sale' })).toHaveAttribute('href', `/campaigns/${SPRING_SALE}?report=clicks`);
    expect(jobs).toHaveTextContent('Mailing');
    expect(jobs).toHaveTextContent('Clicks report · asked 30 Mar 2026, 18:00');
  });

  it('says what each empty list would hold', async () => {
    serve();
    renderAt('/');

    expect(await screen.findByRole('region', { name: 'Sending now' })).toHaveTextContent(/^Sending nowNothing is sending now\./);
    expect(screen.queryByText(/Live · refreshes/)).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Next scheduled' })).toHaveTextContent('Nothing is scheduled.');
    expect(screen.getByRole('region', { name: 'Awaiting approval' })).toHaveTextContent('No campaign is waiting for approval.');
    expect(screen.getByRole('region', { name: 'Recent imports' })).toHaveTextContent('No contacts have been imported yet');
    expect(screen.getByRole('region', { name: 'Your report e-mails' })).toHaveTextContent('You have not asked for a report by e-mail yet');
    expect(screen.queryByRole('listitem')).not.toBeInTheDocument();
  });

  it('reads itself again every few seconds while a campaign sends and its receipts come in, then slows down', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(NOW);
    let processed = 800;
    let delivered = 0;
    const sending = () => [
      {
        uuid: SPRING_SALE,
        name: 'Spring sale',
        recipients: 2000,
        processed,
        delivered: 0,
        percent: processed / 20,
        started_at: '2026-03-31 00:10:00',
        paused: false,
      },
    ];
    const fetchMock = serve((range) =>
      overview(range, { sending_now: processed < 2000 ? sending() : [], totals: emptyTotals({ sent: processed, delivered }) }),
    );
    renderAt('/');

    const bar = await screen.findByRole('progressbar', { name: 'Progress of Spring sale' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');

    processed = 1800;
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS);
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Progress of Spring sale' })).toHaveAttribute('aria-valuenow', '90'));

    processed = 2000;
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS);
    expect(await screen.findByText(/Nothing is sending now/)).toBeInTheDocument();

    // The last receipts arrive after the last message has gone: still live for a while…
    delivered = 1990;
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS);
    await waitFor(() => expect(figure('Delivered')).toHaveTextContent('1,990 delivered'));

    // …then once a minute.
    await vi.advanceTimersByTimeAsync(RECEIPT_WINDOW_MS);
    const reads = fetchMock.mock.calls.length;
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS * 5);
    expect(fetchMock.mock.calls.length).toBe(reads);
    await vi.advanceTimersByTimeAsync(IDLE_REFRESH_MS);
    expect(fetchMock.mock.calls.length).toBe(reads + 1);
  });

  it('says when the overview could not be read', async () => {
    signIn();
    mockApi(() => apiError(500, 'The database is unavailable.'));
    renderAt('/?days=7');

    expect(await screen.findByText('The overview could not be loaded.', {}, { timeout: 10_000 })).toBeInTheDocument();
  });
});
