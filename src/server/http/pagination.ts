import type { FastifyRequest } from 'fastify';
import { PER_PAGE_DEFAULT, type PageQuery } from '../../shared/contract';
import type { PageWindow } from '../db/pages';

export type Page<T> = {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: { current_page: number; from: number | null; last_page: number; path: string; per_page: number; to: number | null; total: number };
};

/** A list's query: its page, and its `sort` where the list takes one (http/openapi.ts, shared/contract/sorts.ts). */
type ListQuery = PageQuery & { sort?: string };

/** The rows a page covers, in the order the query's `sort` asks (the repository reads it with `orderOf`). */
export function pageWindow(query: ListQuery): PageWindow {
  return { limit: query.per_page, offset: (query.page - 1) * query.per_page, ...(query.sort ? { sort: query.sort } : {}) };
}

/**
 * The list envelope (docs/interface.md §2.1) with absolute links; a page past the end is empty with
 * true meta. `filters` given are kept in the links (after the page), and so is the query's `sort`, so
 * a client that follows them stays on the filtered list, in its order.
 */
export function pageEnvelope<T>(
  request: FastifyRequest,
  publicUrl: string,
  query: ListQuery,
  total: number,
  data: T[],
  filters: Record<string, string | undefined> = {},
): Page<T> {
  const path = publicUrl + request.url.split('?')[0];
  const lastPage = Math.max(1, Math.ceil(total / query.per_page));
  const kept = Object.entries({ ...filters, sort: query.sort })
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([name, value]) => `&${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('');
  const link = (page: number) => `${path}?page=${page}${query.per_page === PER_PAGE_DEFAULT ? '' : `&per_page=${query.per_page}`}${kept}`;
  const from = data.length > 0 ? (query.page - 1) * query.per_page + 1 : null;
  return {
    data,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: query.page > 1 ? link(Math.min(query.page - 1, lastPage)) : null,
      next: query.page < lastPage ? link(query.page + 1) : null,
    },
    meta: {
      current_page: query.page,
      from,
      last_page: lastPage,
      path,
      per_page: query.per_page,
      to: from === null ? null : from + data.length - 1,
      total,
    },
  };
}
