/**
 * The Sending page (issue 34, point 5): an admin sees the team's connections with their state
 * (circuit, today's counts, the last error with its time) and adds one, landing on its page; a
 * viewer or an editor is told the page is for admins, and nothing is asked of the service. The
 * routes editor sits below the connections (its own tests are in features/sms-routes).
 *
 * Seen red: with the page's RoleRequired taken away (the editor's page asked for the connections,
 * and the service would have answered 403), and with the state column showing the circuit alone
 * (no "503: Service Unavailable", no counts).
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { smsConnection } from '../../features/sms-connections/sms-connection-fixtures';
import type { Role } from '../../lib/roles';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import SendingPage from './sending.page';

const OPEN = smsConnection({
  uuid: '7a3c2d9e-0000-4000-8000-000000000002',
  name: 'Vonage fallback',
  provider: 'vonage',
  base_url: 'https://rest.nexmo.com',
  credentials: { api_key: '********', api_secret: '********cret', signature_secret: '********cret' },
  senders: ['Acme'],
  state: {
    circuit: 'open',
    open_until: '2026-11-29 09:12:30',
    last_error: '503: Service Unavailable',
    last_error_at: '2026-11-29 09:12:00',
    messages_today: 1234,
    errors_today: 7,
    failovers_today: 5,
  },
});

function renderPage(role: Role = 'admin') {
  return render(
    <Routes>
      <Route path="/sending" element={<SendingPage />} />
      <Route path="/sending/connections/:uuid" element={<p>Connection page</p>} />
    </Routes>,
    { route: '/sending', role },
  );
}

describe('the Sending page', () => {
  it('lists the connections with their state today', async () => {
    signIn();
    mockApi((_request, url) => (url.pathname.endsWith('/sms-routes') ? json({ routes: [] }) : json(page([OPEN, smsConnection()]))));
    renderPage();

    const table = await screen.findByRole('table', { name: 'Connections' });
    const row = within(table).getByRole('row', { name: /Vonage fallback/ });
    expect(row).toHaveTextContent('Vonage');
    expect(row).toHaveTextContent('Acme');
    expect(row).toHaveTextContent('Circuit open');
    expect(row).toHaveTextContent('1,234 sent · 7 errors · 5 failovers');
    expect(row).toHaveTextContent('503: Service Unavailable');
    expect(row).toHaveTextContent('29 Nov 2026, 09:12:00');
    const closed = within(table).getByRole('row', { name: /Twilio UK/ });
    expect(closed).toHaveTextContent('Circuit closed');
    expect(closed).toHaveTextContent('No error');
    expect(screen.getByRole('heading', { name: 'Routes', level: 2 })).toBeInTheDocument();
  });

  it('adds a Twilio connection and opens its page', async () => {
    signIn();
    const bodies: unknown[] = [];
    mockApi(async (request, url) => {
      if (url.pathname.endsWith('/sms-routes')) return json({ routes: [] });
      if (request.method === 'POST') {
        bodies.push(await request.json());
        return json({ data: smsConnection({ uuid: '7a3c2d9e-0000-4000-8000-000000000009' }) }, 201);
      }
      return json(page([]));
    });
    const { user } = renderPage();

    expect(await screen.findByText('No connections yet')).toBeInTheDocument();
    // One in the page's header, one in the empty panel.
    await user.click(screen.getAllByRole('button', { name: 'Add connection' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Add a connection' });
    await user.selectOptions(within(dialog).getByRole('combobox', { name: /Provider/ }), 'twilio');
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Twilio UK');
    await user.type(within(dialog).getByRole('textbox', { name: /Account SID/ }), 'AC0123456789abcdef0123456789abcdef');
    await user.type(within(dialog).getByLabelText(/Auth Token/), 'tok-secret-0123456789abcdef');
    await user.type(within(dialog).getByRole('combobox', { name: /Senders/ }), '+447700900001{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Add connection' }));

    expect(await screen.findByText('Connection page')).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        name: 'Twilio UK',
        provider: 'twilio',
        credentials: { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'tok-secret-0123456789abcdef' },
        senders: ['+447700900001'],
        max_per_second: 10,
        enabled: true,
        price_per_segment: null,
      },
    ]);
  });

  for (const role of ['editor', 'viewer'] as const) {
    it(`tells ${role === 'editor' ? 'an editor' : 'a viewer'} it is for admins, and asks nothing of the service`, async () => {
      signIn();
      const fetchMock = mockApi(() => json(page([OPEN])));
      renderPage(role);
      expect(await screen.findByRole('note')).toHaveTextContent(/Only admins|viewer role/);
      expect(screen.getByRole('link', { name: 'Back to the overview' })).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('table')).toBeNull());
      expect(screen.queryByRole('button', { name: 'Add connection' })).toBeNull();
      expect(fetchMock).not.toHaveBeenCalled();
    });
  }
});
