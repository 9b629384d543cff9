/**
 * The flows list (issue 36, point 2): each flow by name, linked to its page, with its trigger in words
 * (the keyword's own name), whether it is enabled and its runs by state; an editor has "New flow", a
 * viewer does not. With none yet, the empty state says what a flow is.
 *
 * Seen red: with the trigger written without the pickers' names ("When a number texts a keyword").
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Flow } from '../../api/gen/types.gen';
import type { Role } from '../../lib/roles';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import FlowsListPage from './flows-list.page';

const JOIN = { uuid: '11111111-1111-4111-8111-111111111111', keyword: 'JOIN' };
const WELCOME = {
  uuid: '55555555-5555-4555-8555-555555555555',
  name: 'Welcome series',
  trigger: { type: 'keyword', keyword_uuid: JOIN.uuid },
  enabled: true,
  reentry: 'after_end',
  steps: [],
  runs: { active: 3, completed: 8, exited: 1 },
  links: [],
  created_at: '2026-11-20 09:00:00',
  updated_at: '2026-11-20 09:00:00',
} as unknown as Flow;

function renderPage(role: Role, flows: Flow[]) {
  signIn();
  mockApi((_request, url) => {
    if (url.pathname === '/api/2.0/flows') return json(page(flows));
    if (url.pathname === '/api/2.0/keywords') return json(page([JOIN]));
    return json(page([]));
  });
  return render(
    <Routes>
      <Route path="/flows" element={<FlowsListPage />} />
    </Routes>,
    { route: '/flows', role },
  );
}

describe('the flows list', { timeout: 20_000 }, () => {
  it('lists each flow with its trigger in words, its state and its runs, and offers an editor a new one', async () => {
    renderPage('editor', [WELCOME]);
    const table = await screen.findByRole('table', { name: 'Flows' });
    const row = within(table).getByRole('row', { name: /Welcome series/ });
    expect(within(row).getByRole('link', { name: 'Welcome series' })).toHaveAttribute('href', `/flows/${WELCOME.uuid}`);
    expect(await within(row).findByText('When a number texts JOIN')).toBeInTheDocument();
    expect(row).toHaveTextContent('Enabled');
    expect(row).toHaveTextContent('3 active· 8 completed · 1 exited');
    expect(screen.getByRole('link', { name: 'New flow' })).toHaveAttribute('href', '/flows/new');
  });

  it('explains what a flow is when there is none, and offers a viewer nothing to create', async () => {
    renderPage('viewer', []);
    expect(await screen.findByText('No flows yet')).toBeInTheDocument();
    expect(screen.getByText(/A flow starts for one number when something happens/)).toBeInTheDocument();
    expect(screen.getByText('Flows an editor adds show here.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New flow' })).not.toBeInTheDocument();
  });
});
