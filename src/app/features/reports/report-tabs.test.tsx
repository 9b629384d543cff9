import { Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ReportType } from '../../../shared/contract';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import { altDeliveryRow, REPORT_CAMPAIGN_UUID, reportPage, sentRow } from './report-fixtures';
import type { ReportCampaign } from './report-empty-state';
import { ReportTabs } from './report-tabs';

const SENT: ReportCampaign = { status: 2, scheduled_send_date: '2026-03-02 09:00:00', expiry_date: '2026-03-03 09:00:00' };
const PENDING: ReportCampaign = { ...SENT, status: 0 };

function LocationProbe() {
  return <output data-testid="location">{useLocation().search}</output>;
}

/** 40 alternative-delivery rows, one send; the other reports are empty. `hold` keeps a page's answer back until released. */
function serveReports(hold?: { page: number; until: Promise<void> }) {
  signIn();
  return mockApi(async (_request, url) => {
    const match = /\/reporting\/[^/]+\/(\w+)$/.exec(url.pathname);
    const type = match?.[1] as ReportType | undefined;
    const current = Number(url.searchParams.get('page') ?? 1);
    const perPage = Number(url.searchParams.get('per_page') ?? 15);
    if (hold && current === hold.page) await hold.until;
    if (type === 'alt_delivery') return json(reportPage(40, current, perPage, altDeliveryRow));
    if (type === 'sent') return json(page([sentRow()], { per_page: perPage }));
    return json(page([], { per_page: perPage }));
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
            <ReportTabs campaignUuid={REPORT_CAMPAIGN_UUID} campaign={campaign} timeZone="Europe/London" email="ada@herald.test" />
            <LocationProbe />
          </>
        }
      />
    </Routes>,
    { route: `/campaigns/${REPORT_CAMPAIGN_UUID}${search}` },
  );
}

describe('the report tabs', () => {
  it('open the report and page of the URL, read the next page ahead, and page through it from the cache', async () => {
    const fetchMock = serveReports();
    const { user } = renderTabs('?report=alt_delivery');

    expect(screen.getByRole('tab', { name: 'Alternative delivery' })).toHaveAttribute('aria-selected', 'true');
    const table = await screen.findByRole('table', { name: 'Alternative delivery report' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Message ID', 'Mobile', 'Custom fields', 'Sent at', 'Updated at', 'Status']);
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
    expect(within(screen.getByRole('table', { name: 'Alternative delivery report' })).getAllByRole('row')[1]).toHaveTextContent('first_name: Ada16');
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

    const table = await screen.findByRole('table', { name: 'Alternative delivery report' });
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

    await user.click(await screen.findByRole('tab', { name: 'Sent' }));
    expect(screen.getByTestId('location')).toHaveTextContent('?report=sent&page=1&per_page=50');
    const table = await screen.findByRole('table', { name: 'Sent report' });
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

    renderTabs('?report=delivery', PENDING);
    expect(await screen.findByText('No rows yet: the campaign has not started sending.')).toBeInTheDocument();
    expect(screen.getByText(/made at its send time \(2 Mar 2026, 09:00\)/)).toBeInTheDocument();
  });
});
