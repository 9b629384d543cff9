/**
 * A connection's page (issue 34, point 5): its state, its two callback URLs to copy, a test send
 * that shows the provider's message id, or the provider's refusal (422, on the number when the
 * recipient is at fault) or that it could not take it (502); an edit that keeps the saved
 * credentials; a delete refused because the connection is in use (409) said on the page.
 *
 * Seen red: with the test send's failure shown only for 422 (the 502 said nothing), and with the
 * 409 sent to a toast like any other failure (no "This connection is in use" on the page).
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { smsConnection } from '../../features/sms-connections/sms-connection-fixtures';
import { apiError, json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import SmsConnectionPage from './sms-connection.page';

const CONNECTION = smsConnection();
const BASE = `/api/2.0/sms-connections/${CONNECTION.uuid}`;

function renderPage() {
  return render(
    <Routes>
      <Route path="/sending" element={<p>Sending page</p>} />
      <Route path="/sending/connections/:uuid" element={<SmsConnectionPage />} />
    </Routes>,
    { route: `/sending/connections/${CONNECTION.uuid}`, role: 'admin' },
  );
}

describe('a connection’s page', () => {
  it('shows the callback URLs to paste, with copy buttons', async () => {
    signIn();
    mockApi(() => json({ data: CONNECTION }));
    renderPage();
    const callbacks = await screen.findByRole('region', { name: 'Callback URLs' });
    expect(within(callbacks).getByLabelText('Status callback URL')).toHaveTextContent(CONNECTION.status_callback_url);
    expect(within(callbacks).getByLabelText('Inbound URL')).toHaveTextContent(CONNECTION.inbound_url);
    expect(within(callbacks).getByRole('button', { name: 'Copy the status callback url' })).toBeInTheDocument();
    expect(within(callbacks).getByRole('button', { name: 'Copy the inbound url' })).toBeInTheDocument();
    expect(callbacks).toHaveTextContent(/PUBLIC_URL must be reachable from the internet/);
    expect(screen.getByRole('region', { name: 'Settings' })).toHaveTextContent('auth_token: ********4f2a (saved)');
  });

  it('sends a test message and shows the provider’s message id, its refusal, or that it could not take it', async () => {
    signIn();
    const answers = [
      () => json({ data: { provider_message_id: 'SM0123456789abcdef0123456789abcdef' } }),
      () => apiError(422, 'Twilio refused the test message (21211: Invalid To phone number).', { phone_number: ['21211: Invalid To phone number'] }),
      () => apiError(502, 'Twilio did not take the test message (20429: Too Many Requests).'),
    ];
    const sent: unknown[] = [];
    mockApi(async (request, url) => {
      if (request.method === 'POST' && url.pathname === `${BASE}/test`) {
        sent.push(await request.json());
        return answers.shift()!();
      }
      return json({ data: CONNECTION });
    });
    const { user } = renderPage();
    const test = await screen.findByRole('region', { name: 'Send a test message' });
    const number = within(test).getByRole('textbox', { name: /Phone number/ });

    await user.type(number, '+447700900123');
    await user.click(within(test).getByRole('button', { name: 'Send test message' }));
    expect(await within(test).findByText('The provider took the test message')).toBeInTheDocument();
    expect(test).toHaveTextContent('SM0123456789abcdef0123456789abcdef');

    await user.click(within(test).getByRole('button', { name: 'Send test message' }));
    expect(await within(test).findByText('The provider refused the test message')).toBeInTheDocument();
    expect(number).toHaveAccessibleDescription(/21211: Invalid To phone number/);

    await user.click(within(test).getByRole('button', { name: 'Send test message' }));
    expect(await within(test).findByText('The provider could not take the test message')).toBeInTheDocument();
    expect(test).toHaveTextContent('Twilio did not take the test message (20429: Too Many Requests).');
    expect(sent).toEqual([{ phone_number: '+447700900123' }, { phone_number: '+447700900123' }, { phone_number: '+447700900123' }]);
  });

  it('edits the connection, sending only what changed', async () => {
    signIn();
    const patches: unknown[] = [];
    mockApi(async (request) => {
      if (request.method === 'PUT') {
        const patch = (await request.json()) as Record<string, unknown>;
        patches.push(patch);
        return json({ data: { ...CONNECTION, ...patch, credentials: CONNECTION.credentials, updated_at: '2026-11-21 10:00:00' } });
      }
      return json({ data: CONNECTION });
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit connection' });
    await user.clear(within(dialog).getByRole('textbox', { name: /Name/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Twilio IE');
    await user.click(within(dialog).getByRole('switch', { name: /Enabled/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(patches).toEqual([{ name: 'Twilio IE', enabled: false }]));
    expect(await screen.findByRole('heading', { name: 'Twilio IE', level: 1 })).toBeInTheDocument();
  });

  it('says on the page that a connection in use cannot be deleted (409)', async () => {
    signIn();
    mockApi((request) => {
      if (request.method === 'DELETE') return apiError(409, 'A route uses this connection: take it out of the routes first.');
      return json({ data: CONNECTION });
    });
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete connection' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete connection' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This connection is in use');
    expect(alert).toHaveTextContent('A route uses this connection: take it out of the routes first.');
    expect(screen.queryByText('Sending page')).toBeNull();
  });

  it('deletes the connection and goes back to the Sending page', async () => {
    signIn();
    mockApi((request) => (request.method === 'DELETE' ? new Response(null, { status: 204 }) : json({ data: CONNECTION })));
    const { user } = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete connection' })).getByRole('button', { name: 'Delete connection' }));
    expect(await screen.findByText('Sending page')).toBeInTheDocument();
  });
});
