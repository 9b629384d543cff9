/**
 * The routes editor (issue 34, point 5): the rules in order with their countries, connections and
 * sender; add, remove, move up and down (by keyboard too), and Save sends the whole list; the
 * service's 422 shows on the rule's field it names.
 *
 * Seen red: with `moveRule` not moving (its `move` call removed), the saved order was unchanged; with
 * the 422's field errors not kept (`setErrors(error.fieldErrors)` removed), the sender's message was
 * not found on rule 2.
 */
import { describe, expect, it } from 'vitest';
import type { SmsConnection, SmsRoutes } from '../../../shared/contract';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import { RoutesSection } from './routes-section';

const TWILIO = '5d1c6a70-0000-4000-8000-0000000000c1';
const VONAGE = '5d1c6a70-0000-4000-8000-0000000000c2';
const BIND = '5d1c6a70-0000-4000-8000-0000000000c3';

function connection(uuid: string, name: string, provider: SmsConnection['provider'], enabled = true): SmsConnection {
  return {
    uuid,
    name,
    provider,
    base_url: '',
    credentials: {},
    senders: [],
    max_per_second: 10,
    enabled,
    price_per_segment: null,
    status_callback_url: `https://herald.example.com/api/2.0/sms-connections/${uuid}/status`,
    inbound_url: `https://herald.example.com/api/2.0/sms-connections/${uuid}/inbound`,
    state: { circuit: 'closed', open_until: null, last_error: null, last_error_at: null, messages_today: 0, errors_today: 0, failovers_today: 0 },
    links: [],
    created_at: '2030-01-01 09:00:00',
    updated_at: '2030-01-01 09:00:00',
  };
}
// Newest first, as the list answers.
const CONNECTIONS = [connection(BIND, 'Bind', 'smpp'), connection(VONAGE, 'Vonage', 'vonage'), connection(TWILIO, 'Twilio UK', 'twilio')];

function serve(routes: SmsRoutes['routes'], answer?: (body: SmsRoutes) => Response) {
  signIn();
  const saved: SmsRoutes[] = [];
  mockApi(async (request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    if (path === '/sms-routes' && request.method === 'GET') return json({ routes });
    if (path === '/sms-routes' && request.method === 'PUT') {
      const body = (await request.json()) as SmsRoutes;
      saved.push(body);
      return answer ? answer(body) : json({ routes: body.routes.map((rule) => ({ ...rule, sender: rule.sender ?? null })) });
    }
    if (path === '/sms-connections') return json(page(CONNECTIONS, { per_page: 100 }));
    return apiError(404, 'Not found');
  });
  return saved;
}

/** The option `text` of an open combobox's own list (every rule has its lists). */
async function optionOf(input: HTMLElement, text: string) {
  const listbox = await waitFor(() => document.getElementById(input.getAttribute('aria-controls') ?? '')!);
  return within(listbox).findByText(text);
}

const UK_ROUTE = { countries: ['GB', 'IE'], connections: [TWILIO, VONAGE], sender: 'Acme' };
const ANY_ROUTE = { countries: ['*'], connections: [VONAGE], sender: null };

describe('the routes editor', () => {
  it('says what happens without routes', async () => {
    serve([]);
    render(<RoutesSection />, { role: 'admin' });
    expect(await screen.findByText(/No routes: every message goes through the team’s enabled connections, in the order they were made/)).toBeInTheDocument();
  });

  it('lists the rules in order with their countries, connections in order, and sender', async () => {
    serve([UK_ROUTE, ANY_ROUTE]);
    render(<RoutesSection />, { role: 'admin' });
    const first = await screen.findByRole('group', { name: 'Rule 1' });
    expect(within(first).getByText('United Kingdom (GB)')).toBeInTheDocument();
    expect(within(first).getByText('Ireland (IE)')).toBeInTheDocument();
    expect(within(first).getByText('Tried in this order: 1. Twilio UK, 2. Vonage.')).toBeInTheDocument();
    expect(within(first).getByRole('textbox', { name: /Sender/ })).toHaveValue('Acme');
    expect(within(screen.getByRole('group', { name: 'Rule 2' })).getByText('Any country')).toBeInTheDocument();
  });

  it('moves a rule by keyboard and saves the list in its new order', async () => {
    const saved = serve([UK_ROUTE, ANY_ROUTE]);
    const { user } = render(<RoutesSection />, { role: 'admin' });
    const up = await screen.findByRole('button', { name: 'Move rule 2 up' });
    expect(screen.getByRole('button', { name: 'Move rule 1 up' })).toBeDisabled();
    up.focus();
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save routes' }));
    await screen.findByText('The routes were saved.');
    expect(saved).toEqual([{ routes: [ANY_ROUTE, UK_ROUTE] }]);
  });

  it('adds a rule with a country and connections in the order picked, and removes one', async () => {
    const saved = serve([ANY_ROUTE]);
    const { user } = render(<RoutesSection />, { role: 'admin' });
    await user.click(await screen.findByRole('button', { name: 'Add a rule' }));
    const rule = screen.getByRole('group', { name: 'Rule 2' });
    const countries = within(rule).getByRole('combobox', { name: /Countries/ });
    await user.click(countries);
    await user.keyboard('Fran');
    await user.click(await optionOf(countries, 'France (FR)'));
    const connections = within(rule).getByRole('combobox', { name: /Connections/ });
    await user.click(connections);
    await user.click(await optionOf(connections, 'Vonage (vonage)'));
    await user.click(await optionOf(connections, 'Twilio UK (twilio)'));
    // SMPP connections are routed like the others.
    expect((await optionOf(connections, 'Bind (smpp)')).closest('[role="option"]')).not.toHaveAttribute('data-combobox-disabled', 'true');
    await user.click(screen.getByRole('button', { name: 'Move rule 2 up' }));
    await user.click(screen.getByRole('button', { name: 'Save routes' }));
    await screen.findByText('The routes were saved.');
    expect(saved.at(-1)).toEqual({ routes: [{ countries: ['FR'], connections: [VONAGE, TWILIO], sender: null }, ANY_ROUTE] });

    await user.click(screen.getByRole('button', { name: 'Remove rule 1' }));
    await user.click(screen.getByRole('button', { name: 'Save routes' }));
    await screen.findAllByText('The routes were saved.');
    expect(saved.at(-1)).toEqual({ routes: [ANY_ROUTE] });
  });

  it('makes Any country stand alone', async () => {
    const saved = serve([{ countries: ['GB'], connections: [TWILIO], sender: null }]);
    const { user } = render(<RoutesSection />, { role: 'admin' });
    const rule = await screen.findByRole('group', { name: 'Rule 1' });
    const countries = within(rule).getByRole('combobox', { name: /Countries/ });
    await user.click(countries);
    await user.keyboard('Any');
    await user.click(await optionOf(countries, 'Any country'));
    await user.click(screen.getByRole('button', { name: 'Save routes' }));
    await screen.findByText('The routes were saved.');
    expect(saved).toEqual([{ routes: [{ countries: ['*'], connections: [TWILIO], sender: null }] }]);
  });

  it('asks for countries and connections before saving', async () => {
    const saved = serve([]);
    const { user } = render(<RoutesSection />, { role: 'admin' });
    await user.click(await screen.findByRole('button', { name: 'Add a rule' }));
    await user.click(screen.getByRole('button', { name: 'Save routes' }));
    expect(await screen.findByText('Choose at least one country, or Any country.')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one connection.')).toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it("shows the service's 422 on the rule's field it names", async () => {
    serve([UK_ROUTE, ANY_ROUTE], () =>
      apiError(422, 'The given data was invalid.', {
        'routes.0.sender': ['The sender must be one of the senders of each connection of the rule: “Twilio UK” sends from +447700900001.'],
        'routes.1.countries.0': ['"ZZ" is not a country.'],
      }),
    );
    const { user } = render(<RoutesSection />, { role: 'admin' });
    await user.click(await screen.findByRole('button', { name: 'Save routes' }));
    const first = screen.getByRole('group', { name: 'Rule 1' });
    expect(await within(first).findByText(/“Twilio UK” sends from \+447700900001/)).toBeInTheDocument();
    expect(within(first).getByRole('textbox', { name: /Sender/ })).toHaveAttribute('aria-invalid', 'true');
    expect(within(screen.getByRole('group', { name: 'Rule 2' })).getByText('"ZZ" is not a country.')).toBeInTheDocument();
    expect(screen.getByRole('alert', { name: '' })).toHaveTextContent('Some rules need a change');
  });
});
