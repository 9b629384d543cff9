import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

/** `?search=` as a number's digits; what the API accepts (at most 32 characters). */
export function parseContactSearch(search: URLSearchParams): string | undefined {
  const digits = (search.get('search') ?? '').replace(/\D/g, '').slice(0, 32);
  return digits || undefined;
}

/**
 * The search box's text, and the search in the URL it leads to after a pause in typing:
 * a reload or a shared link shows the same contacts.
 */
export function useContactSearch() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = parseContactSearch(searchParams);
  const [text, setText] = useState(searchParams.get('search') ?? '');

  const commit = useDebouncedCallback((next: string) => {
    setSearchParams(
      (current) => {
        const updated = new URLSearchParams(current);
        const digits = next.replace(/\D/g, '');
        if (digits) updated.set('search', digits);
        else updated.delete('search');
        // Another search has other pages: start from the first.
        updated.delete('page');
        return updated;
      },
      { replace: true },
    );
  }, 300);

  const onTextChange = (next: string) => {
    setText(next);
    commit(next);
  };

  return { search, text, onTextChange };
}
