/**
 * The reports section of a campaign's page.
 *
 * Issue 32, seen red: with the clicks chart's query keyed without the counter (read once), the chart
 * kept "2 clicks" after the counter moved to 4; with bots drawn, it read 3.
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { CampaignSummary, ClicksReportRow } from '../../api/gen/types.gen';
import { campaign, CAMPAIGN_UUID, ZONE } from '../../features/campaigns/campaign-fixtures';
import { reportPage, reportSummary } from '../../features/reports/report-fixtures';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import CampaignReports from './campaign-reports';
import { summaryOf } from '../../testing/campaign-summary';

const SETTLED: CampaignSummary = summaryOf({
  recipients: 1000,
  delivered: 950,
  failed: 40,
  unsent: 10,
  clicks: 650,
  human_clicks: 600,
  bot_clicks: 50,
  opt_outs: 12,
});

/** 650 clicks, the first 300 between 09:00 and 09:59, the rest between 11:00 and 11:59. */
function click(index: number): ClicksReportRow {
  const minute = String(index % 60).padStart(2, '0');
  return {
    Phone_Number: '+447700900001',
    Link_Name: 'SALE',
    Link_Destination: 'https://shop.example.com/spring',
    Clicked_At: `2026-03-02 ${index <= 300 ? '09' : '11'}:${minute}:00`,
    User_Agent: '',
    Device_Type: 'mobile',
    OS_Version: 'iOS 18',
    Browser_Version: 'Safari 18',
  };
}

function serve() {
  signIn();
  return mockApi((_request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    if (path === '/users/me')
      return json({
        data: { uuid: 'u', name: 'Ada', email: 'ada@herald.test', current_team: { uuid: 't', name: 'Herald' }, teams: [], app_timezone: ZONE, created_at: '' },
      });
    if (path === `/reporting/${CAMPAIGN_UUID}/summary`)
      return json({ data: reportSummary({ campaign_uuid: CAMPAIGN_UUID, delivered: 950, opt_outs: 12, opt_out_rate: 12 / 950 }) });
    if (path === `/reporting/${CAMPAIGN_UUID}/clicks`) {
      return json(reportPage(650, Number(url.searchParams.get('page')), Number(url.searchParams.get('per_page')), click));
    }
    return json(page([]));
  });
}

// The whole reports section at once (charts, tabs, table, filters): the budget of the other form tests under load.
describe('the campaign’s reports', { timeout: 20_000 }, () => {
  it('chart the outcomes and the clicks with text alternatives, and open the report of the URL', async () => {
    const fetchMock = serve();
    render(
      <Routes>
        <Route path="/campaigns/:uuid" element={<CampaignReports campaign={campaign({ status: 2, is_locked: true })} summary={SETTLED} timeZone={ZONE} />} />
      </Routes>,
      { route: `/campaigns/${CAMPAIGN_UUID}?report=clicks&per_page=50` },
    );

    expect(screen.getByRole('heading', { level: 2, name: 'Reports' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent)).toEqual([
      'Delivery outcomes',
      'Clicks over time',
      'Your report e-mails',
    ]);

    const outcomes = screen.getByRole('list', { name: 'Delivery outcomes of 1,000 recipients' });
    expect(
      within(outcomes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Delivered950 (95%)', 'Failed40 (4%)', 'Unsent10 (1%)', 'Pending0 (0%)']);
    // With their rate over the messages delivered, from the report summary.
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Delivery outcomes' })).toHaveTextContent(
        'Opt-outs: 12 (1.3% of delivered) (numbers that opted out while this was the last campaign they received)',
      ),
    );

    const clicks = await screen.findByRole('img', {
      name: /^500 clicks by hour from 2 Mar, 09:00 to 2 Mar, 11:00; the most, 300, in the hour from 2 Mar, 09:00$/,
    });
    expect(clicks).toBeInTheDocument();
    expect(screen.getByText('Only the first 500 of 650 clicks are drawn; the Clicks report below has every one.')).toBeInTheDocument();
    const hidden = screen.getByRole('table', { name: 'Clicks by hour' });
    expect(
      within(hidden)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent),
    ).toEqual(['2 Mar, 09:00300', '2 Mar, 10:000', '2 Mar, 11:00200']);
    // The chart read five pages of 100, no more.
    const chartReads = fetchMock.mock.calls.map(([request]) => new URL(request.url)).filter((url) => url.searchParams.get('per_page') === '100');
    expect(chartReads.map((url) => url.searchParams.get('page'))).toEqual(['1', '2', '3', '4', '5']);

    expect(screen.getByRole('tab', { name: 'Clicks' })).toHaveAttribute('aria-selected', 'true');
    // The clicks report's headline: people, not link previews.
    expect(screen.getByRole('list', { name: 'Clicks in figures' })).toHaveTextContent('Unique human clicks300');
    expect(await screen.findByText('Rows 1–50 of 650')).toBeInTheDocument();
    expect(await screen.findByText(/You have not asked for a report by e-mail yet/)).toBeInTheDocument();
  });

  it('read the clicks chart again whenever the click counter moves, drawing people’s clicks and not link previews', async () => {
    // Two clicks by people and a chat app's preview; then a third person clicks.
    let rows = [click(1), click(2), { ...click(3), Device_Type: 'bot' }];
    signIn();
    const fetchMock = mockApi((_request, url) => {
      const path = url.pathname.replace('/api/2.0', '');
      if (path === `/reporting/${CAMPAIGN_UUID}/clicks`) return json(reportPage(rows.length, Number(url.searchParams.get('page')), 100, (i) => rows[i - 1]!));
      return json(page([]));
    });
    const sending = campaign({ status: 1, is_locked: true });
    const counts = (clicks: number): CampaignSummary => ({ ...SETTLED, queued: 10, clicks, human_clicks: clicks - 1, bot_clicks: 1 });
    const view = (summary: CampaignSummary) => (
      <Routes>
        <Route path="/campaigns/:uuid" element={<CampaignReports campaign={sending} summary={summary} timeZone={ZONE} />} />
      </Routes>
    );
    const { rerender } = render(view(counts(3)), { route: `/campaigns/${CAMPAIGN_UUID}` });
    expect(await screen.findByRole('img', { name: /^2 clicks, all in the hour from 2 Mar, 09:00$/ })).toBeInTheDocument();

    rows = [...rows, click(4)];
    rerender(view(counts(4)));
    expect(await screen.findByRole('img', { name: /^3 clicks, all in the hour from 2 Mar, 09:00$/ })).toBeInTheDocument();
    const chartReads = fetchMock.mock.calls.map(([request]) => new URL(request.url)).filter((url) => url.searchParams.get('per_page') === '100');
    expect(chartReads).toHaveLength(2);
  });
});
