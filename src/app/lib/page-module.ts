import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import { getSession } from './session';

/** What a lazily loaded `*.page.tsx` module exports: the page, and optionally what to start fetching. */
export interface PageModule {
  default: ComponentType;
  prefetch?: (queryClient: QueryClient, args: LoaderFunctionArgs) => void;
}

/**
 * Turns a page module into route properties. The loader starts the page's queries (same
 * queryOptions factories as the page) without waiting for them: the page shows its own skeleton.
 */
export function toRoute(queryClient: QueryClient) {
  return ({ default: Component, prefetch }: PageModule) => ({
    Component,
    loader: (args: LoaderFunctionArgs) => {
      if (prefetch && getSession()) prefetch(queryClient, args);
      return null;
    },
  });
}
