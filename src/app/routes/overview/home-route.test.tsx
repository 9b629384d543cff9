/**
 * The dashboard's home (issue 21, point 1): `/` is the Overview, inside the shell, and "Overview"
 * leads the navigation, marked as the page on screen; the campaigns are one click away.
 *
 * Seen red: with the index route showing the campaigns list again (no Overview heading), and with
 * the Overview entry taken out of sections.ts (the first link was Campaigns).
 */
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { overview } from '../../features/overview/overview-fixtures';
import { createQueryClient } from '../../lib/query-client';
import { AppProviders } from '../../providers';
import { createRoutes } from '../../router';
import { currentUser } from '../../testing/current-user';
import { apiError, json, mockApi, signIn } from '../../testing/mock-api';

describe('the dashboard’s home', { timeout: 30_000 }, () => {
  it('is the Overview, first in the navigation', async () => {
    signIn();
    const fetchMock = mockApi((_request, url) => {
      if (url.pathname === '/api/2.0/users/me') return json({ data: currentUser('editor') });
      if (url.pathname === '/api/2.0/overview') return json({ data: overview({ from: url.searchParams.get('from')!, to: url.searchParams.get('to')! }) });
      return apiError(404, 'Unexpected request');
    });
    const queryClient = createQueryClient();
    queryClient.setDefaultOptions({ queries: { retry: false } });
    const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: ['/'] });
    render(<RouterProvider router={router} />, { wrapper: ({ children }) => <AppProviders queryClient={queryClient}>{children}</AppProviders> });

    expect(await screen.findByRole('heading', { name: 'Overview', level: 1 }, { timeout: 20_000 })).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Sending now' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');

    const links = within(screen.getByRole('navigation', { name: 'Main' })).getAllByRole('link');
    expect(links[0]).toHaveAccessibleName('Overview');
    expect(links[0]).toHaveAttribute('href', '/');
    expect(links[0]).toHaveAttribute('aria-current', 'page');
    expect(links[1]).toHaveAccessibleName('Campaigns');
    expect(links[1]).not.toHaveAttribute('aria-current');

    const asked = fetchMock.mock.calls.map(([request]) => new URL(request.url).pathname);
    expect(asked).toContain('/api/2.0/overview');
    expect(asked).not.toContain('/api/2.0/campaigns');
  });
});
