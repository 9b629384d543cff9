/**
 * The template editor does not lose work (issue 32, point 9): leaving with unsaved changes asks
 * first (in the dashboard and when the tab closes), and "Track this link" creates the link only
 * when the template is saved, so an abandoned edit leaves no link behind.
 *
 * Seen red: without the guard in the form, the navigation went straight to the list (no dialog)
 * and beforeunload was not prevented; with the tracker creating the link at once (as it did), the
 * link was POSTed before anything was saved.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Template, VanityDomain } from '../../api/gen/types.gen';
import { createQueryClient } from '../../lib/query-client';
import { AppProviders } from '../../providers';
import { currentUser } from '../../testing/current-user';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import TemplateEditPage from './template-edit.page';

const UUID = '9c7e2f10-0000-4000-8000-000000000001';
const DOMAIN: VanityDomain = {
  uuid: '7d0f3a52-1c2b-4c1e-9d7a-3f5e8b2a6c10',
  domain: 'go.herald.test',
  url_base: 'https://go.herald.test',
  is_default: true,
  status: '1',
  created_at: '2026-11-01 09:00:00',
  updated_at: '2026-11-01 09:00:00',
  links: [],
};
const TEMPLATE: Template = {
  uuid: UUID,
  name: 'Spring sale',
  body: 'Sale now on',
  links: [],
  is_locked: false,
  sender: 'HeraldShop',
  created_at: '2026-11-02 09:30:00',
  updated_at: '2026-11-02 09:30:00',
};

/** The API as the page sees it; every change is recorded as "METHOD path". */
function serve({ failSave = false } = {}) {
  const changes: string[] = [];
  mockApi(async (request, url) => {
    if (request.method !== 'GET') changes.push(`${request.method} ${url.pathname}`);
    if (url.pathname === '/api/2.0/users/me') return json({ data: currentUser('editor') });
    if (request.method === 'POST' && url.pathname === '/api/2.0/links') {
      const input = (await request.json()) as Record<string, string>;
      return json({ data: { uuid: 'a1b2c3d4-0000-4000-8000-000000000009', ...input, created_at: '', updated_at: '' } }, 201);
    }
    if (request.method === 'DELETE') return new Response(null, { status: 204 });
    if (request.method === 'PUT') {
      if (failSave) return json({ error: { code: 500, http_code: 500, message: 'Server Error', request_id: 'x' } }, 500);
      return json({ data: { ...TEMPLATE, ...((await request.json()) as object) } });
    }
    if (url.pathname === `/api/2.0/templates/${UUID}`) return json({ data: TEMPLATE });
    if (url.pathname.startsWith('/api/2.0/vanity-domains')) return json(page([DOMAIN]));
    return json(page([]));
  });
  return changes;
}

function renderPage() {
  signIn();
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const router = createMemoryRouter(
    [
      { path: '/templates/:uuid', element: <TemplateEditPage /> },
      { path: '/templates', element: <h1>Templates list</h1> },
    ],
    { initialEntries: [`/templates/${UUID}`] },
  );
  render(<RouterProvider router={router} />, { wrapper: ({ children }) => <AppProviders queryClient={queryClient}>{children}</AppProviders> });
  return { router, user: userEvent.setup() };
}

afterEach(() => vi.unstubAllGlobals());

describe('the template editor with unsaved changes', { timeout: 40_000 }, () => {
  it('asks before leaving, in the dashboard and when the tab closes; stays, or leaves when told', async () => {
    serve();
    const { router, user } = renderPage();
    const body = await screen.findByRole('textbox', { name: /message/i }, { timeout: 20_000 });
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);

    await user.type(body, '!');
    expect(unload()).toBe(true);
    void router.navigate('/templates');
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' }, { timeout: 5000 });
    await user.click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe(`/templates/${UUID}`);
    expect(body).toHaveValue('Sale now on!');

    void router.navigate('/templates');
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Leave without saving?' }, { timeout: 5000 })).getByRole('button', { name: 'Leave without saving' }),
    );
    expect(await screen.findByRole('heading', { name: 'Templates list' })).toBeInTheDocument();
  });

  it('creates a tracked link only when the template is saved, and deletes it again when the save fails', async () => {
    const changes = serve({ failSave: true });
    const { user } = renderPage();
    const body = await screen.findByRole('textbox', { name: /message/i }, { timeout: 20_000 });
    await user.click(body);
    await user.paste(' https://shop.example.com/sale');
    await user.click(
      within(await screen.findByRole('alert', { name: 'A plain web address' })).getByRole('button', { name: 'Track https://shop.example.com/sale as a link' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Track this link' }, { timeout: 5000 });
    await user.click(within(dialog).getByRole('button', { name: 'Add link and use it' }));
    await waitFor(() => expect(body).toHaveValue('Sale now on ::SALE::'));
    // Tracked, not saved: nothing exists on the service yet.
    expect(changes).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(changes).toEqual(['POST /api/2.0/links', `PUT /api/2.0/templates/${UUID}`, 'DELETE /api/2.0/links/a1b2c3d4-0000-4000-8000-000000000009']),
    );
  });
});
