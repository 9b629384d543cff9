/**
 * A segment's page (issue 35, point 1): an editor sees the saved conditions in the builder, each read
 * as its sentence with the group's and the campaign's names, edits one and sees the live count follow
 * (POST /segments/count with the edited conditions), saves it (PUT), and reads the segment's contacts
 * page by page. A viewer reads the same segment as sentences with its count and contacts, with no
 * builder and the sentence that says why; an editor deletes it after confirming. Its Revenue card
 * lists the campaigns that sent to it with the segment's figures in each (issue 35, point 3).
 *
 * Seen red: with the groups and campaigns not found where the page reads them (every sentence said
 * “a campaign that was not found”, “a group that was not found”).
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { segment, segmentContact, SUMMER_CAMPAIGN, VIP_GROUP } from '../../features/segments/segment-fixtures';
import type { Role } from '../../lib/roles';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import SegmentPage from './segment.page';

const SEGMENT = segment();
/** The segment's revenue: one campaign with an order in another currency, one with none. */
const REVENUE = {
  currency: 'GBP',
  campaigns: [
    {
      campaign_uuid: SUMMER_CAMPAIGN,
      name: 'Summer sale',
      started_at: '2026-11-04 10:00:00',
      recipients: 3,
      orders: 3,
      revenue: 35,
      revenue_per_recipient: 11.6667,
      revenue_other: [{ currency: 'EUR', value: 7.5, orders: 1 }],
    },
    {
      campaign_uuid: '5d0c1f7e-0000-4000-8000-000000000002',
      name: 'Autumn',
      started_at: '2026-10-01 09:00:00',
      recipients: 2,
      orders: 0,
      revenue: 0,
      revenue_per_recipient: 0,
      revenue_other: [],
    },
  ],
  more: false,
};
const BASE = `/api/2.0/segments/${SEGMENT.uuid}`;

interface Served {
  method: string;
  path: string;
  body?: unknown;
}

function serve() {
  signIn();
  const requests: Served[] = [];
  let current = SEGMENT;
  mockApi(async (request, url) => {
    const body = request.method === 'GET' ? undefined : await request.text().then((text) => (text ? JSON.parse(text) : undefined));
    requests.push({ method: request.method, path: url.pathname, body });
    if (url.pathname === '/api/2.0/segments/count') {
      const within = (body as { conditions: Array<{ within_days?: number }> }).conditions[0]?.within_days;
      return json({ data: { count: within === 14 ? 12 : 5 } });
    }
    if (url.pathname === `${BASE}/count`) return json({ data: { count: 5 } });
    if (url.pathname === `${BASE}/revenue`) return json({ data: REVENUE });
    if (url.pathname === `${BASE}/contacts`)
      return json(page([segmentContact(), segmentContact({ phone_number: '353851234567', country: 'IE', custom_fields: { first_name: 'Aoife' } })]));
    if (url.pathname === BASE && request.method === 'PUT') {
      current = { ...current, ...(body as object), updated_at: '2026-11-05 09:30:00' };
      return json({ data: current });
    }
    if (url.pathname === BASE && request.method === 'DELETE') return new Response(null, { status: 204 });
    if (url.pathname === BASE) return json({ data: current });
    if (url.pathname === '/api/2.0/contact-groups') return json(page([{ uuid: VIP_GROUP, name: 'VIP', headers: ['first_name', 'city'] }]));
    if (url.pathname === '/api/2.0/campaigns') return json(page([{ uuid: SUMMER_CAMPAIGN, name: 'Summer sale' }]));
    if (url.pathname === '/api/2.0/segments') return json(page([]));
    return json({ error: { code: 404, http_code: 404, message: `Not served: ${url.pathname}` } }, 404);
  });
  return { requests };
}

function renderPage(role: Role) {
  return render(
    <Routes>
      <Route path="/segments/:uuid" element={<SegmentPage />} />
      <Route path="/segments" element={<h1>Segments list</h1>} />
    </Routes>,
    { route: `/segments/${SEGMENT.uuid}`, role },
  );
}

describe('a segment’s page', { timeout: 60_000 }, () => {
  it('lets an editor change a condition, see the live count follow, and save it', async () => {
    const { requests } = serve();
    const { user } = renderPage('editor');

    const first = await screen.findByRole('group', { name: 'Condition 1' });
    await waitFor(() => expect(within(first).getByTestId('condition-sentence')).toHaveTextContent('Clicked a link in “Summer sale” in the last 7 days'));
    expect(within(screen.getByRole('group', { name: 'Condition 2' })).getByTestId('condition-sentence')).toHaveTextContent('Is not in the group “VIP”');
    const count = screen.getByRole('status');
    await waitFor(() => expect(count).toHaveTextContent('5contacts match'));

    const days = within(first).getByRole('textbox', { name: 'In the last … days' });
    await user.clear(days);
    await user.click(days);
    await user.paste('14');
    await waitFor(() => expect(count).toHaveTextContent('12contacts match'));
    const counted = requests.filter((request) => request.path === '/api/2.0/segments/count').at(-1);
    expect(counted?.body).toEqual({
      match: 'all',
      conditions: [
        { type: 'event', event: 'clicked', campaign_uuid: SUMMER_CAMPAIGN, within_days: 14 },
        { type: 'group', op: 'not_in', group_uuid: VIP_GROUP },
      ],
    });

    await user.click(screen.getByRole('button', { name: 'Save segment' }));
    expect(await screen.findByText('The segment Recent clickers was saved.')).toBeInTheDocument();
    expect(requests.find((request) => request.method === 'PUT')?.body).toEqual({
      name: 'Recent clickers',
      description: 'Clicked the summer sale, not VIP',
      match: 'all',
      conditions: [
        { type: 'event', event: 'clicked', campaign_uuid: SUMMER_CAMPAIGN, within_days: 14 },
        { type: 'group', op: 'not_in', group_uuid: VIP_GROUP },
      ],
    });

    const contacts = screen.getByRole('table', { name: 'Contacts in the segment' });
    expect(within(contacts).getByRole('rowheader', { name: '+447700900123' })).toBeInTheDocument();
    expect(within(contacts).getByRole('row', { name: /\+353851234567/ })).toHaveTextContent('Ireland');
    expect(within(contacts).getByRole('columnheader', { name: 'city' })).toBeInTheDocument();
  });

  it('shows a viewer the conditions as sentences, the count and the contacts, with no builder', async () => {
    serve();
    renderPage('viewer');

    const conditions = await screen.findByRole('list', { name: 'Conditions' });
    await waitFor(() => expect(conditions).toHaveTextContent('Clicked a link in “Summer sale” in the last 7 days'));
    expect(conditions).toHaveTextContent('Is not in the group “VIP”');
    expect(screen.getByText('Contacts who match all of these:')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('5contacts match'));
    expect(screen.getByRole('note')).toHaveTextContent(/You have the viewer role/);
    expect(screen.queryByRole('button', { name: 'Save segment' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete segment' })).not.toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Contacts in the segment' })).toHaveTextContent('+447700900123');
  });

  it('shows the revenue of the campaigns that sent to it, other currencies apart', async () => {
    serve();
    renderPage('viewer');

    const card = await screen.findByRole('region', { name: 'Revenue' });
    const table = await within(card).findByRole('table', { name: 'Revenue by campaign' });
    const summer = within(table).getByRole('row', { name: /Summer sale/ });
    expect(
      within(summer)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['3', '3', '£35.00and €7.50 (1 order)', '£11.67']);
    expect(within(summer).getByRole('link', { name: 'Summer sale' })).toHaveAttribute('href', `/campaigns/${SUMMER_CAMPAIGN}`);
    expect(within(table).getByRole('row', { name: /Autumn/ })).toHaveTextContent('£0.00');
  });

  it('deletes the segment once the editor confirms', async () => {
    const { requests } = serve();
    const { user } = renderPage('editor');

    await user.click(await screen.findByRole('button', { name: 'Delete segment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete segment' });
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete segment' }));
    expect(await screen.findByRole('heading', { name: 'Segments list' })).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([BASE]);
  });
});
