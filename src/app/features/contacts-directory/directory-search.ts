import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { SEARCH_MAX } from '../../../shared/contract';

/** How long the search box waits for the typing to stop before the URL (and the request) follows. */
export const DIRECTORY_SEARCH_DEBOUNCE_MS = 300;

/** `?search=` as the API takes it: trimmed, at most SEARCH_MAX characters; undefined for every number. */
export function parseDirectorySearch(search: URLSearchParams): string | undefined {
  return (search.get('search') ?? '').trim().slice(0, SEARCH_MAX) || undefined;
}

/**
 * The search box's text, and the search in the URL it leads to after a pause in typing: a reload or
 * a shared link shows the same contacts. The URL entry is replaced, not added: Back leaves the page
 * instead of stepping through every letter typed.
 */
export function useDirectorySearch() {
  const [searchParams, setSearchParams] = useSearchParams();
  // What is typed and not yet in the URL; otherwise the box shows the URL's text, so a change of
  // the URL by another way (the navbar's link, Back) shows in the box too.
  const [typed, setTyped] = useState<string | null>(null);

  const commit = useDebouncedCallback((next: string) => {
    setSearchParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next.trim()) updated.set('search', next);
        else updated.delete('search');
        // Another search has other pages: start from the first.
        updated.delete('page');
        return updated;
      },
      { replace: true },
    );
    setTyped(null);
  }, DIRECTORY_SEARCH_DEBOUNCE_MS);

  const onTextChange = (next: string) => {
    setTyped(next);
    commit(next);
  };

  return { search: parseDirectorySearch(searchParams), text: typed ?? searchParams.get('search') ?? '', onTextChange };
}
