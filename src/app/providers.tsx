import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { colorSchemeManager } from './color-scheme';
import { getSession, subscribeToSession } from './lib/session';
import { cssVariablesResolver, theme } from './theme';

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
      {/* The scheme the user chose (light, dark), else the system's; public/color-scheme.js applies it before the first paint. */}
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
        <ModalsProvider>
          <Suspense fallback={null}>
            {/* Bottom right: a toast never covers the header's team switcher and user menu. */}
            <Notifications position="bottom-right" />
          </Suspense>
          {children}
        </ModalsProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
