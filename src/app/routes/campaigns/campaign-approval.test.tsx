/**
 * Campaign approvals (issue 18, point 6): a campaign at or above the team's threshold waits for an
 * admin other than the member who asked. The campaign page says who asked; an admin who may decide
 * approves or rejects it with an optional comment; everyone else reads who can; once decided it
 * says by whom, when, and why. The list shows the state beside the status.
 *
 * Seen red: with whoMayDecide answering undefined for any admin (the requester was offered Approve
 * and Reject, which the service refuses with 403), and with the approve call sent to /reject.
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Approval, Campaign } from '../../api/gen/types.gen';
import { campaign, CAMPAIGN_UUID, campaignReview } from '../../features/campaigns/campaign-fixtures';
import type { Role } from '../../lib/roles';
import { currentUser } from '../../testing/current-user';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { campaignPageReads } from '../../features/campaigns/campaign-page-reads';
import CampaignPage from './campaign.page';
import CampaignsListPage from './campaigns-list.page';
import { summaryOf } from '../../testing/campaign-summary';

const ME = { uuid: currentUser('admin').uuid, name: currentUser('admin').name };
const BOB = { uuid: '44444444-4444-4444-8444-444444444444', name: 'Bob Marley' };
const CY = { uuid: '55555555-5555-4555-8555-555555555555', name: 'Cy Admin' };

const PENDING: Approval = {
  status: 'pending',
  requested_by: BOB,
  requested_at: '2026-03-01 10:00:00',
  decided_by: null,
  decided_at: '',
  comment: '',
  recipients: null,
  notice: '',
};

function future(overrides: Partial<Campaign> = {}): Campaign {
  return campaign({ scheduled_send_date: '2030-03-02 09:00:00', expiry_date: '2030-03-03 09:00:00', ...overrides });
}

function serve(current: () => Campaign, onPut: (request: Request, path: string) => Response | Promise<Response> = () => json({ data: current() })) {
  signIn();
  return mockApi((request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    if (request.method === 'PUT') return onPut(request, path);
    if (path === '/campaigns/preview' || path === `/campaigns/${CAMPAIGN_UUID}/review`) return json({ data: campaignReview() });
    if (path === '/campaigns') return json(page([current(), campaign({ uuid: 'b0b0b0b0-0000-4000-8000-000000000002', name: 'Quiet update' })]));
    if (path === `/campaigns/${CAMPAIGN_UUID}`) return json({ data: current() });
    if (path === `/campaigns/${CAMPAIGN_UUID}/summary`)
      return json({
        data: summaryOf({ recipients: 12 }),
      });
    const read = campaignPageReads(path, { contacts: 12 });
    if (read) return read;
    return json(page([]));
  });
}

function renderCampaign(role: Role) {
  const rendered = render(
    <Routes>
      <Route path="/campaigns/:uuid" element={<CampaignPage />} />
    </Routes>,
    { route: `/campaigns/${CAMPAIGN_UUID}`, role },
  );
  return { ...rendered, approval: async () => screen.findByRole('region', { name: 'Approval' }) };
}

describe('a campaign waiting for approval', () => {
  it('lets an admin other than the requester approve it with a comment, then says who approved it and when', async () => {
    let current = future({ approval: PENDING });
    const puts: { path: string; body: unknown }[] = [];
    serve(
      () => current,
      async (request, path) => {
        puts.push({ path, body: await request.json() });
        current = future({ approval: { ...PENDING, status: 'approved', decided_by: ME, decided_at: '2026-03-01 11:00:00', comment: 'Looks good' } });
        return json({ data: current });
      },
    );
    const { user, approval } = renderCampaign('admin');

    const panel = await approval();
    expect(panel).toHaveTextContent('Bob Marley asked for approval on 1 Mar 2026, 10:00.');
    expect(within(panel).getByText('Awaiting approval')).toBeInTheDocument();
    await user.type(within(panel).getByRole('textbox', { name: /Comment/ }), 'Looks good');
    await user.click(within(panel).getByRole('button', { name: 'Approve' }));

    expect(await within(panel).findByText('Approved by you on 1 Mar 2026, 11:00, asked by Bob Marley.')).toBeInTheDocument();
    expect(within(panel).getByText('Looks good')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(await screen.findByText('Spring sale is approved: it starts at its send time.')).toBeInTheDocument();
    expect(puts).toEqual([{ path: `/campaigns/${CAMPAIGN_UUID}/approve`, body: { comment: 'Looks good' } }]);
  });

  it('says why a campaign held when sending was to start waits again, and what an approval covers', async () => {
    const notice =
      "Held when sending was to start: its audience now has 32 recipients, the team's approval threshold is 5, and no approval covers that many. An admin must approve it before it starts.";
    let current = future({ approval: { ...PENDING, notice } });
    serve(
      () => current,
      () => {
        current = future({ approval: { ...PENDING, status: 'approved', decided_by: ME, decided_at: '2026-03-01 11:00:00', recipients: 32 } });
        return json({ data: current });
      },
    );
    const { user, approval } = renderCampaign('admin');

    const panel = await approval();
    expect(within(panel).getByRole('alert')).toHaveTextContent(notice);
    await user.click(within(panel).getByRole('button', { name: 'Approve' }));
    expect(await within(panel).findByText(/The approval covers 32 recipients/)).toBeInTheDocument();
    expect(within(panel).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('lets an admin reject it without a comment', async () => {
    let current = future({ approval: PENDING });
    const puts: { path: string; body: unknown }[] = [];
    serve(
      () => current,
      async (request, path) => {
        puts.push({ path, body: await request.json() });
        current = future({ approval: { ...PENDING, status: 'rejected', decided_by: ME, decided_at: '2026-03-01 11:00:00' } });
        return json({ data: current });
      },
    );
    const { user, approval } = renderCampaign('admin');

    await user.click(within(await approval()).getByRole('button', { name: 'Reject' }));

    const panel = await approval();
    expect(await within(panel).findByText('Rejected by you on 1 Mar 2026, 11:00, asked by Bob Marley.')).toBeInTheDocument();
    expect(panel).toHaveTextContent('It will not start. Change it and save it to ask for approval again.');
    expect(puts).toEqual([{ path: `/campaigns/${CAMPAIGN_UUID}/reject`, body: {} }]);
  });

  it('says why when the service refuses, and keeps the comment for another try', async () => {
    serve(
      () => future({ approval: PENDING }),
      () => apiError(409, 'The campaign is not waiting for approval.'),
    );
    const { user, approval } = renderCampaign('admin');
    const panel = await approval();

    await user.type(within(panel).getByRole('textbox', { name: /Comment/ }), 'Ship it');
    await user.click(within(panel).getByRole('button', { name: 'Approve' }));

    expect(await screen.findByText('The campaign is not waiting for approval.')).toBeInTheDocument();
    expect(screen.getByText('The campaign could not be approved')).toBeInTheDocument();
    expect(within(panel).getByRole('textbox', { name: /Comment/ })).toHaveValue('Ship it');
    expect(within(panel).getByRole('button', { name: 'Approve' })).toBeEnabled();
  });

  it('offers the admin who asked no decision, and says another admin must make it', async () => {
    serve(() => future({ approval: { ...PENDING, requested_by: ME } }));
    const { approval } = renderCampaign('admin');

    const panel = await approval();
    expect(panel).toHaveTextContent('You asked for approval on 1 Mar 2026, 10:00.');
    expect(within(panel).getByRole('note')).toHaveTextContent('Another admin of Acme must approve or reject it: no one decides on their own request.');
    expect(within(panel).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Reject' })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('textbox', { name: /Comment/ })).not.toBeInTheDocument();
  });

  it('tells an editor who asked that an admin must decide', async () => {
    serve(() => future({ approval: { ...PENDING, requested_by: ME } }));
    const { approval } = renderCampaign('editor');

    expect(within(await approval()).getByRole('note')).toHaveTextContent('An admin of Acme must approve or reject it.');
  });

  it('tells a viewer who can approve, with nothing to press', async () => {
    serve(() => future({ approval: PENDING }));
    const { approval } = renderCampaign('viewer');

    const panel = await approval();
    expect(within(panel).getByRole('note')).toHaveTextContent(
      'Only an admin of Acme other than Bob Marley can approve or reject it; you have the viewer role.',
    );
    expect(within(panel).queryByRole('button')).not.toBeInTheDocument();
  });
});

describe('a decided campaign', () => {
  it('shows who approved it, when, their comment, and that an edit asks again', async () => {
    serve(() =>
      future({
        approval: {
          status: 'approved',
          requested_by: BOB,
          requested_at: '2026-03-01 10:00:00',
          decided_by: CY,
          decided_at: '2026-03-01 11:00:00',
          comment: 'Checked the list.',
          recipients: 1200,
          notice: '',
        },
      }),
    );
    const { approval } = renderCampaign('editor');

    const panel = await approval();
    expect(panel).toHaveTextContent('Approved by Cy Admin on 1 Mar 2026, 11:00, asked by Bob Marley.');
    expect(within(panel).getByText('Checked the list.')).toBeInTheDocument();
    expect(panel).toHaveTextContent('Saving a change to the campaign asks for approval again.');
    expect(within(panel).queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows nothing about approval for a campaign that needs none', async () => {
    serve(() => future());
    renderCampaign('admin');

    expect(await screen.findByRole('textbox', { name: 'Name' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Approval' })).not.toBeInTheDocument();
  });
});

describe('saving a campaign that now needs approval', () => {
  it('says it waits for an admin’s approval', async () => {
    let current = future();
    serve(
      () => current,
      () => {
        current = future({ name: 'Spring sale!', approval: { ...PENDING, requested_by: ME } });
        return json({ data: current });
      },
    );
    const { user, approval } = renderCampaign('editor');

    await user.type(await screen.findByRole('textbox', { name: 'Name' }), '!');
    await user.click(screen.getByRole('button', { name: 'Review and save' }));
    await user.click(await screen.findByRole('button', { name: 'Schedule' }));

    expect(await screen.findByText('The campaign Spring sale! was saved. It waits for an admin’s approval before it can start.')).toBeInTheDocument();
    expect(await approval()).toHaveTextContent('You asked for approval on 1 Mar 2026, 10:00.');
  });
});

describe('the campaigns list', () => {
  it('shows the approval state beside the status, only for campaigns that need approval', async () => {
    serve(() => future({ approval: PENDING }));
    render(
      <Routes>
        <Route path="/campaigns" element={<CampaignsListPage />} />
      </Routes>,
      { route: '/campaigns', role: 'editor' },
    );

    const waiting = (await screen.findByRole('link', { name: 'Spring sale' })).closest('tr')!;
    expect(within(waiting).getByText('Awaiting approval')).toBeInTheDocument();
    const quiet = screen.getByRole('link', { name: 'Quiet update' }).closest('tr')!;
    expect(within(quiet).getByText('Pending')).toBeInTheDocument();
    expect(within(quiet).queryByText(/approv/i)).not.toBeInTheDocument();
  });
});
