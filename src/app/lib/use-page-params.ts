import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { PER_PAGE_DEFAULT } from '../../shared/contract/page-size';

/** Page sizes offered in every list (the API accepts 1..100). */
export const PAGE_SIZES = [15, 25, 50, 100] as const;

export interface PageParams {
  page: number;
  perPage: number;
}

function positiveInteger(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const number = Number(value);
  return number >= 1 ? number : null;
}

/**
 * Reads `?page=&per_page=`, falling back to the defaults for anything the API would refuse; `sizes`
 * are the page sizes the page offers (a size it does not offer reads as the default).
 */
export function parsePageParams(search: URLSearchParams, sizes: readonly number[] = PAGE_SIZES): PageParams {
  const perPage = positiveInteger(search.get('per_page'));
  return {
    page: positiveInteger(search.get('page')) ?? 1,
    perPage: perPage !== null && sizes.includes(perPage) ? perPage : PER_PAGE_DEFAULT,
  };
}

/** Page and page size live in the URL, so a reload or a shared link shows the same page. */
export function usePageParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { page, perPage } = parsePageParams(searchParams);

  const setPage = useCallback(
    (next: number) =>
      setSearchParams((current) => {
        const updated = new URLSearchParams(current);
        updated.set('page', String(next));
        return updated;
      }),
    [setSearchParams],
  );

  const setPerPage = useCallback(
    (next: number) =>
      setSearchParams((current) => {
        const updated = new URLSearchParams(current);
        // Another page size changes what each page holds, so start again from the first one.
        updated.set('page', '1');
        updated.set('per_page', String(next));
        return updated;
      }),
    [setSearchParams],
  );

  return { page, perPage, setPage, setPerPage };
}

/**
 * Sets a list's filter in the URL (`?<name>=`; undefined or '' removes it). Another filter changes
 * what each page holds, so the list starts again from the first page.
 */
export function useSetFilterParam(name: string) {
  const [, setSearchParams] = useSearchParams();
  return useCallback(
    (value: string | undefined) =>
      setSearchParams((current) => {
        const updated = new URLSearchParams(current);
        if (value) updated.set(name, value);
        else updated.delete(name);
        updated.set('page', '1');
        return updated;
      }),
    [name, setSearchParams],
  );
}
