import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { getSession, subscribeToSession } from './lib/session';
import { theme } from './theme';

// Toasts are drawn by a component of their own chunk: the first paint does not wait for it.
const Notifications = lazy(() => import('@mantine/notifications').then((module) => ({ default: module.Notifications })));

interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

export function AppProviders({ queryClient, children }: AppProvidersProps) {
  // Nothing read under one session may be shown under the next one.
  useEffect(
    () =>
      subscribeToSession(() => {
        if (!getSession()) queryClient.clear();
      }),
    [queryClient],
  );

  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} defaultColorScheme="light">
        <ModalsProvider>
          <Suspense fallback={null}>
            <Notifications position="top-right" />
          </Suspense>
          {children}
        </ModalsProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
