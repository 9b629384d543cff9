import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { CampaignReportSummary } from '../../api/gen/types.gen';
import { reportListItem, reportSummary } from '../../features/reports/report-fixtures';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import ReportsPage from './reports.page';

const SPRING = reportSummary({ campaign_uuid: '5d1c6a70-0000-4000-8000-000000000001', name: 'Spring sale' });
const SUMMER = reportSummary({
  campaign_uuid: '5d1c6a70-0000-4000-8000-000000000002',
  name: 'Summer sale',
  started_sending_at: '2026-06-02 10:00:00',
  messages: 2000,
  sent: 2000,
  delivered: 1900,
  failed: 60,
  expired: 40,
  pending: 0,
  unsent: 0,
  unique_human_clickers: 760,
  clicks_human: 900,
  clicks_bot: 80,
  clicks_total: 980,
  delivery_rate: 0.95,
  click_rate: 0.4,
  opt_outs: 38,
  opt_out_rate: 0.02,
});
const AUTUMN = reportSummary({ campaign_uuid: '5d1c6a70-0000-4000-8000-000000000003', name: 'Autumn sale', status: 1, click_rate: null });
const SUMMARIES: CampaignReportSummary[] = [SUMMER, SPRING, AUTUMN];

function LocationProbe() {
  return <output data-testid="location">{useLocation().search}</output>;
}

function serve() {
  signIn();
  return mockApi((_request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    if (path === '/reporting/summaries') {
      const items = SUMMARIES.map(({ failed: _failed, expired: _expired, ...item }) => reportListItem(item));
      return json(page(items, { per_page: Number(url.searchParams.get('per_page') ?? 15) }));
    }
    const one = /^\/reporting\/([^/]+)\/summary$/.exec(path);
    if (one) return json({ data: SUMMARIES.find((summary) => summary.campaign_uuid === one[1]) });
    return json(page([]));
  });
}

function summaryReads(fetchMock: ReturnType<typeof mockApi>) {
  return fetchMock.mock.calls.map(([request]) => new URL(request.url).pathname).filter((path) => /\/reporting\/[^/]+\/summary$/.test(path));
}

function renderPage(search = '') {
  return render(
    <Routes>
      <Route
        path="/reports"
        element={
          <>
            <ReportsPage />
            <LocationProbe />
          </>
        }
      />
    </Routes>,
    { route: `/reports${search}`, role: 'viewer' },
  );
}

describe('the Reports page', { timeout: 20_000 }, () => {
  it('lists the campaigns with their sent count, delivered, click and opt-out rates side by side', async () => {
    serve();
    renderPage();
    const table = await screen.findByRole('table', { name: 'Campaign figures' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Compare', 'Campaign', 'Started', 'Sent', 'Delivered', 'Click rate', 'Opt-out rate']);
    const [, summer, spring, autumn] = within(table).getAllByRole('row');
    expect(
      within(summer!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['', 'Summer saleFrom HeraldShop', '2 Jun 2026, 10:00', '2,000', '95%', '40%', '2%']);
    expect(
      within(spring!)
        .getAllByRole('cell')
        .slice(3)
        .map((cell) => cell.textContent),
    ).toEqual(['990', '96%', '31.6%', '1.3%']);
    expect(within(spring!).getByRole('link', { name: 'Spring sale' })).toHaveAttribute('href', `/campaigns/${SPRING.campaign_uuid}?report=delivery`);
    // Still sending, nothing to divide by yet.
    expect(autumn).toHaveTextContent('Sending');
    expect(within(autumn!).getAllByRole('cell')[5]).toHaveTextContent('—');
  });

  it('compares two ticked campaigns figure by figure, the choice kept in the URL', async () => {
    const fetchMock = serve();
    const { user } = renderPage();
    await user.click(await screen.findByRole('checkbox', { name: 'Compare Spring sale' }));
    expect(screen.getByText('Tick one more campaign to compare it with the first.')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`?compare=${SPRING.campaign_uuid}`);
    expect(screen.queryByRole('table', { name: 'Comparison of two campaigns' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Compare Summer sale' }));
    expect(screen.getByTestId('location')).toHaveTextContent(`?compare=${SPRING.campaign_uuid}%2C${SUMMER.campaign_uuid}`);
    // Two at most: the third cannot be ticked until one is let go.
    expect(screen.getByRole('checkbox', { name: 'Compare Autumn sale' })).toBeDisabled();

    const comparison = await screen.findByRole('table', { name: 'Comparison of two campaigns' });
    expect(
      within(comparison)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Figure', 'Spring sale2 Mar 2026, 09:00', 'Summer sale2 Jun 2026, 10:00', 'Change']);
    const row = (figure: string) =>
      within(comparison)
        .getAllByRole('row')
        .find((candidate) => within(candidate).queryByRole('rowheader')?.textContent?.startsWith(figure));
    const cells = (figure: string) =>
      within(row(figure)!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells('Delivered')).toEqual(['950', '1,900', '+950']);
    expect(cells('Click rate')).toEqual(['31.6%', '40%', '+8.4 pts']);
    expect(cells('Opt-out rate')).toEqual(['1.3%', '2%', '+0.7 pts']);
    expect(cells('Link previews')).toEqual(['60', '80', '+20']);
    expect(cells('Expired')).toEqual(['10', '40', '+30']);
    expect(summaryReads(fetchMock).sort()).toEqual([
      `/api/2.0/reporting/${SPRING.campaign_uuid}/summary`,
      `/api/2.0/reporting/${SUMMER.campaign_uuid}/summary`,
    ]);

    await user.click(screen.getByRole('button', { name: 'Clear the comparison' }));
    expect(screen.queryByRole('table', { name: 'Comparison of two campaigns' })).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^$/);
    expect(screen.getByRole('checkbox', { name: 'Compare Spring sale' })).not.toBeChecked();
  });

  it('opens on the comparison a link names', async () => {
    serve();
    renderPage(`?compare=${SUMMER.campaign_uuid},${AUTUMN.campaign_uuid},not-a-uuid`);
    const comparison = await screen.findByRole('table', { name: 'Comparison of two campaigns' });
    await waitFor(() => expect(within(comparison).getAllByRole('columnheader')[1]).toHaveTextContent('Summer sale'));
    expect(within(comparison).getAllByRole('columnheader')[2]).toHaveTextContent('Autumn sale');
    // A rate one campaign does not have yet has no difference.
    const clickRate = within(comparison)
      .getAllByRole('row')
      .find((candidate) => within(candidate).queryByRole('rowheader')?.textContent?.startsWith('Click rate'))!;
    expect(
      within(clickRate)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['40%', '—', '']);
    expect(await screen.findByRole('checkbox', { name: 'Compare Autumn sale' })).toBeChecked();
  });
});
