import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ReportType } from '../../../shared/contract';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import { altDeliveryRow, deliveryRow, REPORT_CAMPAIGN_UUID, reportPage, reportSummary, sentRow } from './report-fixtures';
import type { ReportCampaign } from './report-empty-state';
import { ReportTabs } from './report-tabs';

const SENT: ReportCampaign = { status: 2, scheduled_send_date: '2026-03-02 09:00:00', expiry_date: '2026-03-03 09:00:00' };
const PENDING: ReportCampaign = { ...SENT, status: 0 };

function LocationProbe() {
  return <output data-testid="location">{useLocation().search}</output>;
}

/**
 * 40 rows of each delivery report (every fourth failed), one send; the other reports are empty. The
 * delivery report answers its `status` and `search` as the service does. `hold` keeps a page's answer
 * back until released.
 */
function serveReports(hold?: { page: number; until: Promise<void> }) {
  signIn();
  return mockApi(async (_request, url) => {
    const match = /\/reporting\/[^/]+\/(\w+)$/.exec(url.pathname);
    const type = match?.[1] as ReportType | undefined;
    const current = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('per_page') ?? 15);
    if (hold && current === hold.page) await hold.until;
    if (type === 'alt_delivery') return json(reportPage(40, current, perPage, altDeliveryRow));
    if (type === 'delivery') {
      const status = url.searchParams.get('status');
      const search = url.searchParams.get('search') ?? '';
      const rows = Array.from({ length: 40 }, (_, index) => deliveryRow(index + 1)).filter(
        (row) => (!status || row.Status === status) && row.Recipient.includes(search),
      );
      return json(page(rows.slice((current - 1) * perPage, current * perPage), { current_page: current, per_page: perPage, total: rows.length }));
    }
    if (type === 'sent') return json(page([sentRow()], { per_page: perPage }));
    return json(page([], { per_page: perPage }));
  });
}

/** The query strings of the requests made for a report (page and per_page aside). */
function filterRequests(fetchMock: ReturnType<typeof mockApi>, type: ReportType) {
  return fetchMock.mock.calls
    .map(([request]) => new URL(request.url))
    .filter((url) => url.pathname.endsWith(`/reporting/${REPORT_CAMPAIGN_UUID}/${type}`))
    .map((url) => {
      const query = new URLSearchParams(url.search);
      query.delete('page');
      query.delete('per_page');
      return query.toString();
    });
}

function reportRequests(fetchMock: ReturnType<typeof mockApi>, type: ReportType) {
  return fetchMock.mock.calls
    .map(([request]) => new URL(request.url))
    .filter((url) => url.pathname.endsWith(`/reporting/${REPORT_CAMPAIGN_UUID}/${type}`))
    .map((url) => `page=${url.searchParams.get('page')}&per_page=${url.searchParams.get('per_page')}`);
}

function renderTabs(search: string, campaign: ReportCampaign = SENT) {
  return render(
    <Routes>
      <Route
        path="/campaigns/:uuid"
        element={
          <>
            <ReportTabs campaignUuid={REPORT_CAMPAIGN_UUID} campaign={campaign} summary={reportSummary()} timeZone="Europe/London" email="ada@herald.test" />
            <LocationProbe />
          </>
        }
      />
    </Routes>,
    { route: `/campaigns/${REPORT_CAMPAIGN_UUID}${search}` },
  );
}

// Tabs, tables and filters render a lot at once: the same budget as the other form tests under load.
describe('the report tabs', { timeout: 20_000 }, () => {
  it('open the report and page of the URL, read the next page ahead, and page through it from the cache', async () => {
    const fetchMock = serveReports();
    const { user } = renderTabs('?report=alt_delivery');

    expect(screen.getByRole('tab', { name: 'Delivery with fields' })).toHaveAttribute('aria-selected', 'true');
    const table = await screen.findByRole('table', { name: 'Delivery with fields report' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Mobile', 'Status', 'Custom fields', 'Sent at', 'Updated at', 'Failure reason', 'Message ID']);
    const firstRow = within(table).getAllByRole('row')[1]!;
    expect(firstRow).toHaveTextContent('first_name: Ada1');
    expect(firstRow).toHaveTextContent('city: London');
    expect(within(firstRow).getByText('2 Mar 2026, 09:00:05')).toHaveAttribute('title', '2026-03-02 09:00:05 (Europe/London)');
    expect(screen.getByText('Rows 1–15 of 40')).toBeInTheDocument();
    // Page 2 was read before anyone asked for it.
    await waitFor(() => expect(reportRequests(fetchMock, 'alt_delivery')).toEqual(['page=1&per_page=15', 'page=2&per_page=15']));

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(screen.getByText('Rows 16–30 of 40')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('?report=alt_delivery&page=2');
    expect(within(screen.getByRole('table', { name: 'Delivery with fields report' })).getAllByRole('row')[1]).toHaveTextContent('first_name: Ada16');
    await waitFor(() => expect(reportRequests(fetchMock, 'alt_delivery')).toContain('page=3&per_page=15'));
    expect(reportRequests(fetchMock, 'alt_delivery').filter((request) => request === 'page=2&per_page=15')).toHaveLength(1);

    // Another page size starts again from the first page.
    await user.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    await user.click(screen.getByRole('option', { name: '50' }));
    expect(await screen.findByText('Rows 1–40 of 40')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('?report=alt_delivery&page=1&per_page=50');
    expect(screen.queryByRole('button', { name: 'Page 2' })).not.toBeInTheDocument();
  });

  it('keep the page on screen, marked busy, while the next one loads', async () => {
    let release = () => {};
    const fetchMock = serveReports({ page: 2, until: new Promise<void>((resolve) => (release = resolve)) });
    const { user } = renderTabs('?report=alt_delivery&per_page=15');

    const table = await screen.findByRole('table', { name: 'Delivery with fields report' });
    await waitFor(() => expect(reportRequests(fetchMock, 'alt_delivery')).toContain('page=2&per_page=15'));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));

    expect(table).toHaveAttribute('aria-busy', 'true');
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('first_name: Ada1');
    release();
    await waitFor(() => expect(within(table).getAllByRole('row')[1]).toHaveTextContent('first_name: Ada16'));
    expect(table).toHaveAttribute('aria-busy', 'false');
  });

  it('switch report from the first page, with numbers written in full', async () => {
    serveReports();
    const { user } = renderTabs('?report=alt_delivery&page=2&per_page=50');

    await user.click(await screen.findByRole('tab', { name: 'Send details' }));
    expect(screen.getByTestId('location')).toHaveTextContent('?report=sent&page=1&per_page=50');
    const table = await screen.findByRole('table', { name: 'Send details report' });
    expect(within(table).getByRole('cell', { name: '12,345' })).toBeInTheDocument();
    expect(screen.getByText('Rows 1–1 of 1')).toBeInTheDocument();
  });

  it('say why a report is empty', async () => {
    serveReports();
    const { user, unmount } = renderTabs('?report=unsent');
    expect(await screen.findByText('Nothing unsent.')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Clicks' }));
    expect(await screen.findByText('No clicks yet.')).toBeInTheDocument();
    unmount();

    renderTabs('?report=recipient', PENDING);
    expect(await screen.findByText('No rows yet: the campaign has not started sending.')).toBeInTheDocument();
    expect(screen.getByText(/made at its send time \(2 Mar 2026, 09:00\)/)).toBeInTheDocument();
  });
});

describe('the report filters', { timeout: 20_000 }, () => {
  it('show the delivery report number first, then status, sent and delivered times, why it failed, the message, its id last', async () => {
    serveReports();
    renderTabs('?report=delivery');
    const table = await screen.findByRole('table', { name: 'Delivery report' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Recipient', 'Status', 'Sent at', 'Delivered at', 'Failure reason', 'Message', 'Message ID']);
    expect(within(table).queryByText(/Expires/)).not.toBeInTheDocument();
    const [, delivered, , , failed] = within(table).getAllByRole('row');
    expect(
      within(delivered!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '447700900001',
      'Success',
      '2 Mar 2026, 09:00:05',
      '2 Mar 2026, 09:00:09',
      '—',
      'Hi Ada1, the spring sale is on',
      '00000001-0000-4000-8000-00000000000d',
    ]);
    expect(
      within(failed!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      '447700900004',
      'Failed',
      '2 Mar 2026, 09:00:05',
      '—',
      'UNDELIV err:001',
      'Hi Ada4, the spring sale is on',
      '00000004-0000-4000-8000-00000000000d',
    ]);
  });

  it('filter by status and by digits of the number, kept in the URL, meta counting what matches', async () => {
    const fetchMock = serveReports();
    const { user } = renderTabs('?report=delivery&page=2');
    expect(await screen.findByText('Rows 16–30 of 40')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(screen.getByRole('option', { name: 'Failed' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\?report=delivery&page=1&status=Failed$/));
    expect(await screen.findByText('Rows 1–10 of 10')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Delivery report' });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .every((row) => row.textContent?.includes('Failed')),
    ).toBe(true);
    expect(filterRequests(fetchMock, 'delivery')).toContain('status=Failed');

    // Typed as people write numbers: only the digits are searched, once the typing stops.
    await user.click(screen.getByRole('textbox', { name: 'Number' }));
    await user.paste('+44 7700 9000-2');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\?report=delivery&page=1&status=Failed&search=44770090002$/));
    expect(await screen.findByText('Rows 1–3 of 3')).toBeInTheDocument();
    expect(filterRequests(fetchMock, 'delivery')).toContain('status=Failed&search=44770090002');
    // The box keeps the number as it was typed.
    expect(screen.getByRole('textbox', { name: 'Number' })).toHaveValue('+44 7700 9000-2');

    // Another report keeps the number, not the status (it has none).
    await user.click(screen.getByRole('tab', { name: 'Recipients' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\?report=recipient&page=1&search=44770090002$/));
    expect(screen.getByRole('textbox', { name: 'Number' })).toHaveValue('+44 7700 9000-2');
    expect(screen.queryByRole('combobox', { name: 'Status' })).not.toBeInTheDocument();
    await waitFor(() => expect(filterRequests(fetchMock, 'recipient')).toEqual(['search=44770090002']));

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\?report=recipient&page=1$/));
    expect(screen.getByRole('textbox', { name: 'Number' })).toHaveValue('');
  });

  it('open with the filters of the URL, leaving out what the report does not take', async () => {
    const fetchMock = serveReports();
    const { unmount } = renderTabs('?report=unsent&reason=opted_out&search=7700&status=Failed');
    expect(await screen.findByRole('combobox', { name: 'Reason' })).toHaveValue('Opted out');
    await waitFor(() => expect(filterRequests(fetchMock, 'unsent')).toEqual(['reason=opted_out&search=7700']));
    unmount();

    renderTabs('?report=delivery&status=Delivered&reason=stopped');
    await screen.findByRole('table', { name: 'Delivery report' });
    expect(filterRequests(fetchMock, 'delivery')).toContain('');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('');
  });

  it('say when nothing matches, and clear the filters from there', async () => {
    serveReports();
    const { user } = renderTabs('?report=delivery&search=999');
    expect(await screen.findByText('No rows match these filters.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show every row' }));
    expect(await screen.findByText('Rows 1–15 of 40')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\?report=delivery&page=1$/);
  });

  it('head the clicks report with the unique human clicks, the click rate and the clicks of people and bots', async () => {
    serveReports();
    renderTabs('?report=clicks');
    const figures = await screen.findByRole('list', { name: 'Clicks in figures' });
    expect(
      within(figures)
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-label')),
    ).toEqual(['Unique human clicks: 300', 'Click rate: 31.6%', 'Clicks by people: 420', 'Link previews: 60']);
    expect(figures).toHaveTextContent('of 950 delivered');
  });
});
