/**
 * Event endpoints, the list (issue 23, point 1): an admin creates an endpoint with the events ticked
 * in their groups and a header; the signing secret is shown once, then gone once dismissed. The
 * service's 422 messages land on the fields they name (an error in one event, `events.0`, on the
 * picker). A viewer reads the list, with no way to add one and the sentence that says why.
 *
 * Seen red: with the picker's groups replacing each other's types (only the last group's ticks
 * were sent), and with `events.0` left unshown (the form said nothing).
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { eventEndpoint } from '../../features/event-endpoints/event-endpoint-fixtures';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within, waitFor } from '../../testing/render';
import type { Role } from '../../lib/roles';
import EventEndpointsPage from './event-endpoints.page';

const SECRET = 'whsec_c2VjcmV0LW9uY2U=';

function renderPage(role: Role = 'admin') {
  return render(
    <Routes>
      <Route path="/event-endpoints" element={<EventEndpointsPage />} />
    </Routes>,
    { route: '/event-endpoints', role },
  );
}

describe('the event endpoints page', () => {
  it('creates an endpoint with the events ticked across groups and shows its secret once', async () => {
    signIn();
    const created: unknown[] = [];
    const stored = [eventEndpoint({ uuid: '5e1f0a7b-0000-4000-8000-000000000009', url: 'https://old.example.com/events', description: '' })];
    mockApi(async (request) => {
      if (request.method === 'POST') {
        const body = (await request.json()) as Record<string, unknown>;
        created.push(body);
        const endpoint = eventEndpoint({ ...(body as object), uuid: '5e1f0a7b-0000-4000-8000-000000000002' });
        stored.unshift(endpoint);
        return json({ data: { ...endpoint, secret: SECRET } }, 201);
      }
      return json(page(stored));
    });
    const { user } = renderPage();

    await screen.findByRole('table', { name: 'Event endpoints' });
    await user.click(screen.getByRole('button', { name: 'New endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'New event endpoint' });
    await user.type(within(dialog).getByRole('textbox', { name: /URL/ }), 'https://crm.example.com/hooks/herald');
    await user.type(within(dialog).getByRole('textbox', { name: /Description/ }), 'CRM receipts');
    const messages = within(dialog).getByRole('group', { name: 'Messages' });
    expect(messages).toHaveAccessibleDescription('One call lists the messages of a campaign that changed together.');
    await user.click(within(messages).getByRole('checkbox', { name: 'message.failed' }));
    await user.click(within(messages).getByRole('checkbox', { name: 'message.delivered' }));
    expect(within(messages).getByRole('checkbox', { name: 'message.delivered' })).toHaveAccessibleDescription('Messages reached the phones.');
    await user.click(within(within(dialog).getByRole('group', { name: 'Contacts' })).getByRole('checkbox', { name: 'contact.opted_out' }));
    await user.click(within(within(dialog).getByRole('group', { name: 'Reports' })).getByRole('checkbox', { name: 'report.ready' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add header' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Header 1 name' }), 'Authorization');
    await user.type(within(dialog).getByRole('textbox', { name: 'Header 1 value' }), 'Bearer crm');
    await user.click(within(dialog).getByRole('button', { name: 'Create endpoint' }));

    // In the contract's order, whatever was ticked first.
    await waitFor(() =>
      expect(created).toEqual([
        {
          url: 'https://crm.example.com/hooks/herald',
          description: 'CRM receipts',
          events: ['message.delivered', 'message.failed', 'contact.opted_out', 'report.ready'],
          headers: { Authorization: 'Bearer crm' },
          enabled: true,
        },
      ]),
    );
    expect(await screen.findByLabelText('Signing secret')).toHaveTextContent(SECRET);
    expect(screen.queryByRole('dialog', { name: 'New event endpoint' })).not.toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Event endpoints' });
    expect(await within(table).findByRole('link', { name: 'https://crm.example.com/hooks/herald' })).toHaveAttribute(
      'href',
      '/event-endpoints/5e1f0a7b-0000-4000-8000-000000000002',
    );

    await user.click(screen.getByRole('button', { name: 'Dismiss the signing secret' }));
    expect(screen.queryByLabelText('Signing secret')).not.toBeInTheDocument();
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
  });

  it('asks for an event before sending, and shows the service’s field errors on the fields', async () => {
    signIn();
    const fetchMock = mockApi((request) =>
      request.method === 'POST'
        ? apiError(422, 'The given data was invalid.', {
            url: ['The url must be a valid http or https URL.'],
            'events.0': ['An event type must be one of message.submitted, …'],
          })
        : json(page([])),
    );
    const { user } = renderPage();

    await user.click((await screen.findAllByRole('button', { name: 'New endpoint' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New event endpoint' });
    await user.type(within(dialog).getByRole('textbox', { name: /URL/ }), 'https://crm.example.com/hooks');
    await user.click(within(dialog).getByRole('button', { name: 'Create endpoint' }));
    expect(await within(dialog).findByText('Choose at least one event.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([request]) => request.method === 'POST')).toHaveLength(0);

    await user.click(within(dialog).getByRole('checkbox', { name: 'inbound.received' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create endpoint' }));

    const url = within(dialog).getByRole('textbox', { name: /URL/ });
    await waitFor(() => expect(url).toHaveAccessibleDescription(expect.stringContaining('The url must be a valid http or https URL.')));
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('group', { name: /Events/ })).toHaveAccessibleDescription('An event type must be one of message.submitted, …');
    expect(screen.getByRole('dialog', { name: 'New event endpoint' })).toBeInTheDocument();
  });

  it('shows a viewer the endpoints with no way to add one, and why', async () => {
    signIn();
    mockApi(() =>
      json(
        page([
          eventEndpoint(),
          eventEndpoint({
            uuid: '5e1f0a7b-0000-4000-8000-000000000003',
            url: 'https://down.example.com/events',
            enabled: false,
            disabled_reason: 'Every call failed for 24 hours; the last: The receiver answered 503.',
          }),
        ]),
      ),
    );
    renderPage('viewer');

    const table = await screen.findByRole('table', { name: 'Event endpoints' });
    expect(within(table).getByRole('row', { name: /crm\.example\.com/ })).toHaveTextContent('Enabled');
    expect(within(table).getByRole('row', { name: /down\.example\.com/ })).toHaveTextContent('Disabled by Herald');
    expect(screen.queryByRole('button', { name: 'New endpoint' })).not.toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(/^You have the viewer role in Acme/);
  });
});
