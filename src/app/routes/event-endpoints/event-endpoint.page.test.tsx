/**
 * An event endpoint's page (issue 23, point 1): its settings, its deliveries with a status filter,
 * each delivery opened with its body and attempts; an admin sends a test event (its outcome said in
 * a toast, the new delivery listed), redelivers a delivery, and turns back on an endpoint Herald
 * disabled. A viewer reads it all, with none of those buttons.
 *
 * Seen red: with the test's toast reading the first attempt's latency of a delivery with none (it
 * threw), and with the status filter left out of the deliveries' request.
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { eventDelivery, eventDeliveryDetail, eventEndpoint } from '../../features/event-endpoints/event-endpoint-fixtures';
import type { Role } from '../../lib/roles';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import EventEndpointPage from './event-endpoint.page';

const ENDPOINT = eventEndpoint();
const BASE = `/api/2.0/event-endpoints/${ENDPOINT.uuid}`;
const FAILED = eventDelivery({
  uuid: '6f2a1b8c-0000-4000-8000-000000000002',
  type: 'contact.opted_out',
  status: 'failed',
  item_count: 1,
  attempts: 9,
  last_status_code: 503,
  last_error: 'The receiver answered 503.',
  finished_at: '2026-11-04 10:00:00',
});
const DELIVERED = eventDelivery();
const TEST_CALL = eventDeliveryDetail({
  uuid: '6f2a1b8c-0000-4000-8000-000000000003',
  type: 'event_endpoint.test',
  item_count: 1,
  last_status_code: 204,
  payload: { type: 'event_endpoint.test', timestamp: '2026-11-05T09:00:00.000Z', data: { message: 'A test event from Herald.' } },
  attempt_log: [{ status_code: 204, latency_ms: 37, error: null, created_at: '2026-11-05 09:00:00' }],
});

interface Served {
  method: string;
  path: string;
  search: string;
  body?: unknown;
}

function serve(endpoint = ENDPOINT) {
  signIn();
  const requests: Served[] = [];
  let current = endpoint;
  let deliveries = [FAILED, DELIVERED];
  mockApi(async (request, url) => {
    const body = request.method === 'GET' ? undefined : await request.text().then((text) => (text ? JSON.parse(text) : undefined));
    requests.push({ method: request.method, path: url.pathname, search: url.search, body });
    if (url.pathname === BASE && request.method === 'PUT') {
      current = { ...current, ...(body as object), disabled_reason: null, failing_since: '', updated_at: '2026-11-05 09:30:00' };
      return json({ data: current });
    }
    if (url.pathname === `${BASE}/rotate-secret`) return json({ data: { ...current, secret: 'whsec_bmV3LXNlY3JldA==' } });
    if (url.pathname === BASE) return json({ data: current });
    if (url.pathname === `${BASE}/test`) {
      deliveries = [TEST_CALL, ...deliveries];
      return json({ data: TEST_CALL });
    }
    if (url.pathname === `${BASE}/deliveries`) {
      const status = url.searchParams.get('status');
      return json(page(deliveries.filter((delivery) => !status || delivery.status === status)));
    }
    if (url.pathname === `${BASE}/deliveries/${FAILED.uuid}/redeliver`) {
      deliveries = deliveries.map((delivery) =>
        delivery.uuid === FAILED.uuid ? { ...delivery, status: 'pending', next_attempt_at: '2026-11-05 09:00:00' } : delivery,
      );
      return json({ data: deliveries.find((delivery) => delivery.uuid === FAILED.uuid) }, 202);
    }
    if (url.pathname === `${BASE}/deliveries/${FAILED.uuid}`) {
      const listed = deliveries.find((delivery) => delivery.uuid === FAILED.uuid)!;
      return json({
        data: eventDeliveryDetail({
          ...listed,
          payload: { type: 'contact.opted_out', timestamp: '2026-11-03T10:00:00.000Z', data: { phone_number: '+447700900123', source: 'reply' } },
          attempt_log: [
            { status_code: 503, latency_ms: 120, error: 'The receiver answered 503.', created_at: '2026-11-03 10:00:00' },
            { status_code: null, latency_ms: 10000, error: 'No answer within 10 s.', created_at: '2026-11-03 10:00:30' },
          ],
        }),
      });
    }
    return json({ error: { code: 404, http_code: 404, message: 'Not found.' } }, 404);
  });
  return requests;
}

function renderPage(role: Role = 'admin', search = '') {
  return render(
    <Routes>
      <Route path="/event-endpoints/:uuid" element={<EventEndpointPage />} />
    </Routes>,
    { route: `/event-endpoints/${ENDPOINT.uuid}${search}`, role },
  );
}

describe('an event endpoint’s page', () => {
  it('shows its settings and deliveries, and filters them by status', async () => {
    const requests = serve();
    const { user } = renderPage();

    expect(await screen.findByRole('heading', { name: 'CRM delivery receipts', level: 1 })).toBeInTheDocument();
    const settings = screen.getByRole('region', { name: 'Settings' });
    expect(settings).toHaveTextContent(ENDPOINT.url);
    expect(within(settings).getByRole('switch', { name: 'Enabled' })).toBeChecked();
    expect(within(settings).getByText('Authorization')).toBeInTheDocument();
    expect(within(settings).queryByText('Bearer crm')).not.toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Deliveries' });
    expect(within(table).getByRole('row', { name: /contact\.opted_out/ })).toHaveTextContent(/Failed.*9.*503.*The receiver answered 503\./);
    expect(within(table).getByRole('row', { name: /message\.delivered/ })).toHaveTextContent('3 messages');

    await user.click(screen.getByRole('radio', { name: 'Failed' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Deliveries' })).queryByText('message.delivered')).not.toBeInTheDocument());
    expect(requests.some((request) => request.path === `${BASE}/deliveries` && new URLSearchParams(request.search).get('status') === 'failed')).toBe(true);
  });

  it('sends a test event: the toast says how the endpoint answered, and the delivery is listed', async () => {
    const requests = serve();
    const { user } = renderPage();

    await user.click(await screen.findByRole('button', { name: 'Send test event' }));

    expect(await screen.findByText('The test event was delivered')).toBeInTheDocument();
    expect(screen.getByText('Your endpoint answered 204 in 37 ms.')).toBeInTheDocument();
    expect(requests.filter((request) => request.path === `${BASE}/test` && request.method === 'POST')).toHaveLength(1);
    expect(await within(screen.getByRole('table', { name: 'Deliveries' })).findByRole('link', { name: /^event_endpoint\.test/ })).toBeInTheDocument();
  });

  it('says why a test event was not delivered', async () => {
    serve();
    const unanswered = eventDeliveryDetail({
      ...TEST_CALL,
      status: 'failed',
      last_status_code: null,
      last_error: 'The call failed: ECONNREFUSED.',
      attempt_log: [],
    });
    const { user } = renderPage();
    const original = globalThis.fetch;
    mockApi((request, url) => (url.pathname === `${BASE}/test` ? json({ data: unanswered }) : original(request)));

    await user.click(await screen.findByRole('button', { name: 'Send test event' }));

    expect(await screen.findByText('The test event was not delivered')).toBeInTheDocument();
    expect(screen.getByText('The call failed: ECONNREFUSED.')).toBeInTheDocument();
  });

  it('opens a delivery with its body and attempts, and redelivers it', async () => {
    const requests = serve();
    const { user } = renderPage();

    const table = await screen.findByRole('table', { name: 'Deliveries' });
    await user.click(within(table).getByRole('link', { name: /^contact\.opted_out/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Delivery of contact.opted_out' });
    expect(within(dialog).getByRole('region', { name: 'Payload' })).toHaveTextContent('"phone_number": "+447700900123"');
    const attempts = within(dialog).getByRole('table', { name: 'Attempts' });
    expect(within(attempts).getAllByRole('row')).toHaveLength(3);
    expect(within(attempts).getByRole('row', { name: /No answer/ })).toHaveTextContent('No answer within 10 s.');

    await user.click(within(dialog).getByRole('button', { name: 'Redeliver' }));

    expect(await screen.findByText('The delivery is on its way again.')).toBeInTheDocument();
    expect(requests.filter((request) => request.path === `${BASE}/deliveries/${FAILED.uuid}/redeliver`)).toHaveLength(1);
    await waitFor(() => expect(within(dialog).getByText('Pending')).toBeInTheDocument());
    expect(within(screen.getByRole('table', { name: 'Deliveries' })).getByRole('row', { name: /contact\.opted_out/ })).toHaveTextContent('Pending');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Delivery of/ })).not.toBeInTheDocument());
  });

  it('says why Herald disabled it, and an admin turns it back on', async () => {
    const requests = serve(
      eventEndpoint({
        enabled: false,
        failing_since: '2026-11-01 08:00:00',
        disabled_reason: 'Every call failed for 24 hours; the last: The receiver answered 503.',
      }),
    );
    const { user } = renderPage();

    expect(await screen.findByText('Herald disabled this endpoint')).toBeInTheDocument();
    expect(screen.getByText('Every call failed for 24 hours; the last: The receiver answered 503.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Enabled' })).not.toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Enable again' }));

    await waitFor(() => expect(requests.filter((request) => request.method === 'PUT')).toEqual([expect.objectContaining({ body: { enabled: true } })]));
    await waitFor(() => expect(screen.queryByText('Herald disabled this endpoint')).not.toBeInTheDocument());
    expect(screen.getByRole('switch', { name: 'Enabled' })).toBeChecked();
  });

  it('saves only what an edit changed, and shows a rotated secret once', async () => {
    const requests = serve(eventEndpoint({ description: '' }));
    const { user } = renderPage();

    // Without a description, the title is the URL's host; the whole URL is under it.
    expect(await screen.findByRole('heading', { name: 'crm.example.com', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit event endpoint' });
    expect(within(dialog).getByRole('textbox', { name: /URL/ })).toHaveValue(ENDPOINT.url);
    expect(within(dialog).getByRole('checkbox', { name: 'message.delivered' })).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: 'message.failed' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'campaign.finished' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    await waitFor(() =>
      expect(requests.filter((request) => request.method === 'PUT').map((request) => request.body)).toEqual([
        { events: ['message.delivered', 'campaign.finished', 'contact.opted_out'] },
      ]),
    );
    expect(await screen.findByText('The event endpoint was saved.')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Settings' })).getByText('campaign.finished')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'More' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rotate signing secret' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Rotate signing secret' })).getByRole('button', { name: 'Rotate secret' }));

    expect(await screen.findByLabelText('Signing secret', { selector: 'code' })).toHaveTextContent('whsec_bmV3LXNlY3JldA==');
    expect(screen.getByText(/For 24 hours calls also carry a signature made with the previous secret\./)).toBeInTheDocument();
    expect(requests.filter((request) => request.path === `${BASE}/rotate-secret`)).toHaveLength(1);
  });

  it('shows a viewer everything, with no way to change it, test it or redeliver', async () => {
    const requests = serve();
    const { user } = renderPage('viewer', `?delivery=${FAILED.uuid}`);

    const dialog = await screen.findByRole('dialog', { name: 'Delivery of contact.opted_out' });
    expect(within(dialog).getByRole('region', { name: 'Payload' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Redeliver' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(screen.getByRole('table', { name: 'Deliveries' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(/^You have the viewer role in Acme/);
    for (const name of ['Send test event', 'Edit', 'More']) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Enabled' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Settings' })).getByText('Enabled')).toBeInTheDocument();
    expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });
});
