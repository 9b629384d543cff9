/**
 * Stopping a campaign (issue 19, point 1): an editor stops a sending campaign from its page, after a
 * dialog that says what a stop does; the page then says who stopped it and when. Drafts, finished and
 * stopped campaigns offer no stop, nor does the page to a viewer. Status reads Draft, Stopped or
 * "Expired — nothing sent" rather than the bare status (a stopped or expired campaign has status 2,
 * which read "Sent"), on the page and in the list.
 *
 * Seen red: with isStoppable ignoring is_draft (a draft offered a stop the service refuses with 409),
 * with the dialog's onConfirm left out (no PUT), and with campaignStatus reading only `status`
 * (the expired campaign read "Sent").
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Campaign } from '../../api/gen/types.gen';
import { campaign, CAMPAIGN_UUID } from '../../features/campaigns/campaign-fixtures';
import type { Role } from '../../lib/roles';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { campaignPageReads } from '../../features/campaigns/campaign-page-reads';
import CampaignPage from './campaign.page';
import CampaignsListPage from './campaigns-list.page';
import { summaryOf } from '../../testing/campaign-summary';

const SENDING = campaign({ status: 1, is_locked: true, started_sending_at: '2026-03-02 09:00:00' });
const STOPPED: Campaign = { ...SENDING, status: 2, stopped_at: '2026-03-02 09:12:00', stopped_by: { uuid: 'u', name: 'Ada Lovelace' } };

function serve(current: () => Campaign, onStop: () => Campaign = () => STOPPED, list: Campaign[] = []) {
  signIn();
  const stops: string[] = [];
  mockApi((request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    if (request.method === 'PUT' && path === `/campaigns/${CAMPAIGN_UUID}/stop`) {
      stops.push(path);
      return json({ data: onStop() });
    }
    if (path === '/campaigns') return json(page(list));
    if (path === `/campaigns/${CAMPAIGN_UUID}`) return json({ data: current() });
    if (path === `/campaigns/${CAMPAIGN_UUID}/summary`)
      return json({
        data: summaryOf({ recipients: 3, queued: 2, submitted: 1 }),
      });
    const read = campaignPageReads(path);
    if (read) return read;
    return json(page([]));
  });
  return stops;
}

function renderCampaign(role: Role) {
  return render(
    <Routes>
      <Route path="/campaigns/:uuid" element={<CampaignPage />} />
    </Routes>,
    { route: `/campaigns/${CAMPAIGN_UUID}`, role },
  );
}

// Each test renders the whole page (form, reports chunk, dialog): slow on a busy CI machine.
describe('stopping a campaign', { timeout: 20_000 }, () => {
  it('asks first, saying what happens, then stops it and says who stopped it and when', async () => {
    let current = SENDING;
    const stops = serve(
      () => current,
      () => (current = STOPPED),
    );
    const { user } = renderCampaign('editor');

    await user.click(await screen.findByRole('button', { name: 'Stop sending' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop sending' });
    expect(dialog).toHaveTextContent('Nothing more is sent from now on: messages still queued are recorded as unsent with the reason “stopped”');
    expect(dialog).toHaveTextContent('the reports stay');
    await user.click(within(dialog).getByRole('button', { name: 'Keep sending' }));
    expect(stops).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Stop sending' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Stop sending' })).getByRole('button', { name: 'Stop sending' }));

    expect(await screen.findByRole('note', { name: 'Stopped at 2 Mar 2026, 09:12 by Ada Lovelace' })).toHaveTextContent(
      'Messages that were still queued are recorded as unsent with the reason “stopped”',
    );
    expect(stops).toEqual([`/campaigns/${CAMPAIGN_UUID}/stop`]);
    expect(screen.getByText('Stopped', { exact: true })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop sending' })).not.toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'This campaign can no longer be edited' })).toHaveTextContent('Stopped at 2 Mar 2026, 09:12 by Ada Lovelace');
    // The header no longer says it is scheduled.
    expect(screen.getByText(/^Stopped at 2 Mar 2026, 09:12 \(.*\); it was scheduled for/)).toBeInTheDocument();
  });

  it('is offered for a pending campaign, but not for a draft, nor to a viewer', async () => {
    serve(() => campaign({ scheduled_send_date: '2030-03-02 09:00:00', expiry_date: '2030-03-03 09:00:00' }));
    const pending = renderCampaign('editor');
    expect(await screen.findByRole('button', { name: 'Stop sending' })).toBeInTheDocument();
    pending.unmount();

    serve(() => campaign({ is_draft: true, scheduled_send_date: '2030-03-02 09:00:00', expiry_date: '2030-03-03 09:00:00' }));
    const draft = renderCampaign('editor');
    expect(await screen.findByRole('heading', { name: 'Spring sale', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('Draft', { exact: true })).toBeInTheDocument();
    expect(screen.getByText(/A draft: nothing is sent until it is scheduled/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop sending' })).not.toBeInTheDocument();
    draft.unmount();

    serve(() => SENDING);
    renderCampaign('viewer');
    expect(await screen.findByText('Sending', { exact: true })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop sending' })).not.toBeInTheDocument();
  });

  it('reads Draft, Stopped and “Expired — nothing sent” in the list, never Sent for those', async () => {
    const list = [
      campaign({ uuid: 'a0000000-0000-4000-8000-000000000001', name: 'Drafted', is_draft: true }),
      { ...STOPPED, uuid: 'a0000000-0000-4000-8000-000000000002', name: 'Halted' },
      campaign({ uuid: 'a0000000-0000-4000-8000-000000000003', name: 'Too late', status: 2, expired_at: '2026-03-03 09:00:00' }),
      campaign({ uuid: 'a0000000-0000-4000-8000-000000000004', name: 'Done', status: 2, started_sending_at: '2026-03-02 09:00:00' }),
    ];
    serve(() => SENDING, undefined, list);
    render(
      <Routes>
        <Route path="/campaigns" element={<CampaignsListPage />} />
      </Routes>,
      { route: '/campaigns', role: 'editor' },
    );
    const row = async (name: string) => (await screen.findByRole('link', { name })).closest('tr')!;
    expect(await row('Drafted')).toHaveTextContent('Draft');
    expect(await row('Halted')).toHaveTextContent('Stopped');
    expect(await row('Too late')).toHaveTextContent('Expired — nothing sent');
    expect(await row('Too late')).not.toHaveTextContent('Sent');
    expect(await row('Done')).toHaveTextContent('Sent');
  });
});
