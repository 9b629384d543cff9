/**
 * The senders page: the page the URL asks for, the empty and failed states, deletion after
 * confirmation, and by role (issue 18, point 2) an editor sees the senders but no way to change
 * them, with the one sentence saying only admins can.
 *
 * Seen red (the role test): with `canChange` asking for `edit` instead of `admin` in
 * senders-list.page.tsx (the editor saw "New sender" and the row actions), and with <RoleNotice>
 * removed from the page (no explanation).
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Sender } from '../../api/gen/types.gen';
import type { Role } from '../../lib/roles';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import SendersListPage from './senders-list.page';

function sender(name: string, uuid: string): Sender {
  return {
    uuid,
    team_id: '',
    sender: name,
    status: '1',
    created_at: '2026-11-02 09:30:00',
    updated_at: '2026-11-03 17:05:00',
    links: [{ rel: 'self', uri: `http://localhost/api/2.0/senders/${uuid}` }],
  };
}

const SHORT_CODE = sender('88440', '0f6a4c0e-7b5e-4d5e-9d59-9e0c3c6f0001');
const SHOP = sender('HeraldShop', '0f6a4c0e-7b5e-4d5e-9d59-9e0c3c6f0002');

function renderAt(route: string, role: Role = 'admin') {
  return render(
    <Routes>
      <Route path="/senders" element={<SendersListPage />} />
    </Routes>,
    { route, role },
  );
}

describe('the senders page', () => {
  it('shows the page and page size the URL asks for', async () => {
    signIn();
    const fetchMock = mockApi(() => json(page([SHORT_CODE, SHOP], { current_page: 2, per_page: 25, total: 27 })));

    renderAt('/senders?page=2&per_page=25');

    const table = await screen.findByRole('table', { name: 'Senders' });
    expect(within(table).getByRole('cell', { name: '88440' })).toBeInTheDocument();
    expect(within(table).getAllByRole('cell', { name: '2 Nov 2026, 09:30' })).toHaveLength(2);
    expect(screen.getByText('26–27 of 27 senders')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Page size' })).toHaveValue('25 per page');
    const requested = new URL(fetchMock.mock.calls[0]?.[0].url ?? '');
    expect(requested.searchParams.get('page')).toBe('2');
    expect(requested.searchParams.get('per_page')).toBe('25');
  });

  it('invites to add the first sender when there is none', async () => {
    signIn();
    mockApi(() => json(page([])));

    renderAt('/senders');

    expect(await screen.findByText('No senders yet')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'New sender' }).length).toBeGreaterThan(0);
  });

  it('says when the senders could not be loaded, and tries again on request', async () => {
    signIn();
    let attempts = 0;
    mockApi(() => (++attempts === 1 ? apiError(503, 'The service is starting. Try again shortly.') : json(page([SHOP]))));

    const { user } = renderAt('/senders');

    expect(await screen.findByText('The senders could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('The service is starting. Try again shortly.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('cell', { name: 'HeraldShop' })).toBeInTheDocument();
  });

  it('deletes a sender only after confirmation, then refreshes the list', async () => {
    signIn();
    let deleted = false;
    const fetchMock = mockApi((request) => {
      if (request.method === 'DELETE') {
        deleted = true;
        return new Response(null, { status: 204 });
      }
      return json(page(deleted ? [SHORT_CODE] : [SHORT_CODE, SHOP]));
    });

    const { user } = renderAt('/senders');

    await user.click(await screen.findByRole('button', { name: 'Delete HeraldShop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete sender' });
    expect(fetchMock.mock.calls.some(([request]) => request.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete sender' }));

    expect(await screen.findByText('The sender HeraldShop was deleted.')).toBeInTheDocument();
    expect(screen.queryByRole('cell', { name: 'HeraldShop' })).not.toBeInTheDocument();
    const deletion = fetchMock.mock.calls.find(([request]) => request.method === 'DELETE')?.[0];
    expect(deletion?.url).toMatch(new RegExp(`/api/2.0/senders/${SHOP.uuid}$`));
  });

  it('shows an editor the senders but no way to change them, and says only admins can', async () => {
    signIn();
    mockApi(() => json(page([SHORT_CODE, SHOP])));

    renderAt('/senders', 'editor');

    expect(await screen.findByRole('cell', { name: 'HeraldShop' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Only admins of Acme can change senders; you have the editor role.');
    expect(screen.queryByRole('link', { name: 'New sender' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit HeraldShop' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete HeraldShop' })).not.toBeInTheDocument();
  });
});
