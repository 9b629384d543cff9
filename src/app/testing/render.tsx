import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { render as testingLibraryRender, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { currentUserKeys } from '../features/auth/current-user-queries';
import { createQueryClient } from '../lib/query-client';
import type { Role } from '../lib/roles';
import { cssVariablesResolver, theme } from '../theme';
import { currentUser } from './current-user';

interface RenderOptions {
  /** The URL the MemoryRouter starts at. */
  route?: string;
  queryClient?: QueryClient;
  /** Signs the user in with this role in the current team (GET /users/me is then answered from the cache). */
  role?: Role;
}

/** Renders as the app does (Mantine, React Query, a router), with a fresh cache and no retries. */
export function render(ui: ReactElement, { route = '/', queryClient, role }: RenderOptions = {}): RenderResult & { user: UserEvent } {
  const client = queryClient ?? createQueryClient();
  client.setDefaultOptions({ queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } });
  if (role) client.setQueryData(currentUserKeys.me(), currentUser(role));
  const user = userEvent.setup();
  const result = testingLibraryRender(ui, {
    wrapper: ({ children }) => (
      <QueryClientProvider client={client}>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
          <ModalsProvider>
            <Notifications />
            <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
          </ModalsProvider>
        </MantineProvider>
      </QueryClientProvider>
    ),
  });
  return { ...result, user };
}

export * from '@testing-library/react';
