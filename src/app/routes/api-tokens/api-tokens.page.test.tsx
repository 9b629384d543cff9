/**
 * API tokens (issue 18, point 1): the form sends the scope and the expiry as chosen, the expiry read
 * in the service's zone whatever the browser's; the list names each token's team (its uuid when the
 * user is no longer in it), marks read-only tokens and shows when each expires.
 *
 * Seen red: with the form sending only `{ name }` (scope and expires_at missing from the body), with
 * the expiry's empty value sent as '' instead of left out, and with the Team column showing
 * `team_uuid` for every token.
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ApiToken } from '../../api/gen/types.gen';
import { ACME, GLOBEX } from '../../testing/current-user';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import ApiTokensPage from './api-tokens.page';

const GONE_TEAM = '9e3fee41-83d7-4d88-9b70-4a5e6f708192';

function token(overrides: Partial<ApiToken>): ApiToken {
  return {
    uuid: '1a2b3c4d-0000-4000-8000-000000000001',
    name: 'CRM',
    hint: 'hrld_ab12',
    team_uuid: ACME.uuid,
    scope: 'full',
    expires_at: '',
    last_used_at: '',
    created_at: '2026-11-02 09:30:00',
    ...overrides,
  };
}

const TOKENS = [
  token({ name: 'CRM' }),
  token({ uuid: '1a2b3c4d-0000-4000-8000-000000000002', name: 'Dashboard TV', team_uuid: GLOBEX.uuid, scope: 'read_only', expires_at: '2099-01-31 18:00:00' }),
  token({ uuid: '1a2b3c4d-0000-4000-8000-000000000003', name: 'Old script', team_uuid: GONE_TEAM, expires_at: '2020-01-01 00:00:00' }),
];

function serve() {
  signIn();
  const created: unknown[] = [];
  const fetchMock = mockApi(async (request) => {
    if (request.method === 'POST') {
      const body = (await request.json()) as Record<string, unknown>;
      created.push(body);
      return json({ data: { ...token({ name: String(body.name) }), token: 'hrld_secret-once' } }, 201);
    }
    return json(page(TOKENS));
  });
  return { fetchMock, created };
}

function renderPage() {
  return render(
    <Routes>
      <Route path="/api-tokens" element={<ApiTokensPage />} />
    </Routes>,
    // Tokens are the user's own: a viewer makes them too.
    { route: '/api-tokens', role: 'viewer' },
  );
}

describe('the API tokens page', () => {
  it('sends the scope and the expiry chosen, in the service’s zone', async () => {
    const { created } = serve();
    const { user } = renderPage();

    await user.type(await screen.findByRole('textbox', { name: /Token name/ }), 'Nightly export');
    await user.click(screen.getByRole('radio', { name: 'Read-only' }));
    expect(screen.getByText('Reads only: every change is refused, whatever your role.')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: /Expires/ }), '2099-06-30 17:30');
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    expect(await screen.findByLabelText('New API token')).toHaveTextContent('hrld_secret-once');
    expect(created).toEqual([{ name: 'Nightly export', scope: 'read_only', expires_at: '2099-06-30 17:30:00' }]);
  });

  it('sends a full token that never expires when nothing else is chosen', async () => {
    const { created } = serve();
    const { user } = renderPage();

    await user.type(await screen.findByRole('textbox', { name: /Token name/ }), 'CRM');
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    expect(await screen.findByLabelText('New API token')).toBeInTheDocument();
    expect(created).toEqual([{ name: 'CRM', scope: 'full' }]);
  });

  it('refuses an expiry in the past before asking the service', async () => {
    const { created } = serve();
    const { user } = renderPage();

    await user.type(await screen.findByRole('textbox', { name: /Token name/ }), 'CRM');
    await user.type(screen.getByRole('textbox', { name: /Expires/ }), '2020-01-01 09:00');
    await user.click(screen.getByRole('button', { name: 'Create token' }));

    expect(await screen.findByText('The expiry must be in the future.')).toBeInTheDocument();
    expect(created).toEqual([]);
  });

  it('lists each token with its team, its access and its expiry', async () => {
    serve();
    renderPage();

    const table = await screen.findByRole('table', { name: 'API tokens' });
    const columns = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    const rows = within(table).getAllByRole('row').slice(1);
    const cell = (row: number, column: string) => within(rows[row]!).getAllByRole('cell')[columns.indexOf(column)]!;

    expect(cell(0, 'Team')).toHaveTextContent(/^Acme$/);
    expect(cell(0, 'Expires')).toHaveTextContent(/^Never$/);
    expect(cell(0, 'Name')).toHaveTextContent(/^CRM$/);
    expect(cell(1, 'Team')).toHaveTextContent(/^Globex$/);
    expect(cell(1, 'Name')).toHaveTextContent(/^Dashboard TVRead-only$/);
    expect(cell(1, 'Expires')).toHaveTextContent(/^31 Jan 2099, 18:00$/);
    expect(cell(2, 'Team')).toHaveTextContent(GONE_TEAM);
    expect(cell(2, 'Expires')).toHaveTextContent(/^1 Jan 2020, 00:00Expired$/);
  });
});
