import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Campaign, CampaignSummary } from '../../api/gen/types.gen';
import { campaign, CAMPAIGN_UUID, campaignReview, ZONE } from '../../features/campaigns/campaign-fixtures';
import { serviceTimestamp } from '../../lib/service-zone';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen } from '../../testing/render';
import { campaignPageReads } from '../../features/campaigns/campaign-page-reads';
import { reportSummary } from '../../features/reports/report-fixtures';
import CampaignPage from './campaign.page';
import { summaryOf } from '../../testing/campaign-summary';

const SERVICE_LOCKED = 'The campaign is locked: its send time has passed or it is sending, so it can no longer be edited.';

const PENDING_COUNTS: CampaignSummary = summaryOf({ recipients: 12 });

function serve(current: () => Campaign, onPut?: () => Response, counts: () => CampaignSummary = () => PENDING_COUNTS) {
  signIn();
  return mockApi((request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    if (request.method === 'PUT' && onPut) return onPut();
    if (path === '/campaigns/preview' || path === `/campaigns/${CAMPAIGN_UUID}/review`) return json({ data: campaignReview() });
    if (path === `/campaigns/${CAMPAIGN_UUID}`) return json({ data: current() });
    if (path === `/campaigns/${CAMPAIGN_UUID}/summary`) return json({ data: counts() });
    if (path === `/reporting/${CAMPAIGN_UUID}/summary`) return json({ data: reportSummary({ campaign_uuid: CAMPAIGN_UUID }) });
    if (path === '/users/me')
      return json({
        data: {
          uuid: 'u',
          name: 'Ada',
          email: 'ada@herald.test',
          current_team: { uuid: 't', name: 'Herald', role: 'editor' },
          teams: [],
          app_timezone: ZONE,
          created_at: '',
        },
      });
    const read = campaignPageReads(path, { body: 'Hi {{first_name}}', preview: 'Hi  ', contacts: 12 });
    if (read) return read;
    return json(page([]));
  });
}

function renderPage() {
  return render(
    <Routes>
      <Route path="/campaigns/:uuid" element={<CampaignPage />} />
    </Routes>,
    { route: `/campaigns/${CAMPAIGN_UUID}` },
  );
}

// The whole page (form, progress, reports with their filters): the same 20 s budget as the other form tests under load.
describe('the campaign page', { timeout: 20_000 }, () => {
  it('opens a campaign whose send time has passed read-only, and says why', async () => {
    serve(() => campaign({ is_locked: true }));
    renderPage();

    const lock = await screen.findByRole('status', { name: 'This campaign can no longer be edited' });
    expect(lock).toHaveTextContent('Its send time (2 Mar 2026, 09:00) has passed');
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: /Send at/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Review and (save|schedule)/ })).not.toBeInTheDocument();
    expect(await screen.findByRole('listitem', { name: 'Recipients: 12' })).toBeInTheDocument();
  });

  it('shows the switches of a saved campaign as they are stored', async () => {
    serve(() =>
      campaign({
        throttled: true,
        scheduled_send_date: '2030-03-02 09:00:00',
        scheduled_finish_date: '2030-03-02 13:00:00',
        expiry_date: '2030-03-03 09:00:00',
      }),
    );
    renderPage();
    // Registered (uncontrolled), Mantine's switch showed a stored true as off.
    expect(await screen.findByRole('switch', { name: /^Throttle the sending/ })).toBeChecked();
    expect(screen.getByRole('textbox', { name: /Finish by/ })).toHaveValue('2030-03-02 13:00');
  });

  it('says a sending campaign is sending', async () => {
    serve(() => campaign({ is_locked: true, status: 1 }));
    renderPage();
    expect(await screen.findByRole('status', { name: 'This campaign can no longer be edited' })).toHaveTextContent('It is sending');
    expect(screen.getByText('Sending')).toBeInTheDocument();
  });

  it('becomes read-only with the service’s sentence when a save is refused with 423', async () => {
    let locked = false;
    serve(
      () => campaign({ is_locked: locked, scheduled_send_date: '2030-03-02 09:00:00', expiry_date: '2030-03-03 09:00:00' }),
      () => {
        locked = true;
        return apiError(423, SERVICE_LOCKED);
      },
    );
    const { user } = renderPage();

    await user.type(await screen.findByRole('textbox', { name: 'Name' }), '!');
    await user.click(screen.getByRole('button', { name: 'Review and save' }));
    await user.click(await screen.findByRole('button', { name: 'Schedule' }));

    const lock = await screen.findByRole('status', { name: 'This campaign can no longer be edited' });
    expect(lock).toHaveTextContent(`Herald said: ${SERVICE_LOCKED}`);
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /Review and (save|schedule)/ })).not.toBeInTheDocument();
  });

  describe('while sending', () => {
    // Only the polling clock is faked: the page's own refreshes are what the test moves forward.
    afterEach(() => void vi.useRealTimers());

    it('refreshes the progress by itself, and stops asking once every message is sent', async () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      let current = campaign({ is_locked: true, status: 1, started_sending_at: '2026-03-02 09:00:00' });
      let counts: CampaignSummary = summaryOf({ recipients: 3, queued: 2, submitted: 1 });
      const fetchMock = serve(
        () => current,
        undefined,
        () => counts,
      );
      const progressRequests = () =>
        fetchMock.mock.calls.filter(([request]) => new URL(request.url).pathname.startsWith(`/api/2.0/campaigns/${CAMPAIGN_UUID}`)).length;
      renderPage();

      expect(await screen.findByText('Sent 1 of 3 (33%)')).toBeInTheDocument();
      expect(screen.getByText(/Live · refreshes every 2 s/)).toBeInTheDocument();

      // The engine finishes: status 2 with one receipt still to come.
      current = campaign({ is_locked: true, status: 2, started_sending_at: '2026-03-02 09:00:00', finished_sending_at: serviceTimestamp(ZONE) });
      counts = { ...counts, queued: 0, submitted: 1, delivered: 2 };
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await screen.findByText(/Waiting for 1 receipt/)).toBeInTheDocument();
      expect(screen.getByRole('status', { name: 'This campaign can no longer be edited' })).toHaveTextContent('It has been sent.');
      expect(screen.queryByText(/Live · refreshes/)).not.toBeInTheDocument();

      // The receipt arrives: the counts are read once more, then nothing more is asked.
      counts = { ...counts, submitted: 0, delivered: 3 };
      await vi.advanceTimersByTimeAsync(2_000);
      expect(await screen.findByRole('listitem', { name: 'Delivered: 3' })).toBeInTheDocument();
      expect(screen.queryByText(/Waiting for/)).not.toBeInTheDocument();
      const asked = progressRequests();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(progressRequests()).toBe(asked);
    });
  });
});
