import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { REPORT_TYPES, type ReportType } from '../../../shared/contract';

/** Page sizes offered for a report (the API gives at most 100 rows a page). */
export const REPORT_PAGE_SIZES = [15, 50, 100] as const;

export interface ReportParams {
  type: ReportType;
  page: number;
  perPage: number;
}

function positiveInteger(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const number = Number(value);
  return number >= 1 ? number : null;
}

/** Reads `?report=&page=&per_page=` of the campaign page, falling back to the first report's first page. */
export function parseReportParams(search: URLSearchParams): ReportParams {
  const report = search.get('report');
  const perPage = positiveInteger(search.get('per_page'));
  return {
    type: (REPORT_TYPES as readonly string[]).includes(report ?? '') ? (report as ReportType) : REPORT_TYPES[0],
    page: positiveInteger(search.get('page')) ?? 1,
    perPage: perPage !== null && (REPORT_PAGE_SIZES as readonly number[]).includes(perPage) ? perPage : REPORT_PAGE_SIZES[0],
  };
}

/** The report, page and page size on screen live in the URL: a reload or a shared link opens the same view. */
export function useReportParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = parseReportParams(searchParams);

  const update = useCallback(
    (changes: Record<string, string>) =>
      setSearchParams(
        (current) => {
          const updated = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) updated.set(name, value);
          return updated;
        },
        { preventScrollReset: true },
      ),
    [setSearchParams],
  );

  // Another report or page size starts again from the first page.
  const setType = useCallback((type: ReportType) => update({ report: type, page: '1' }), [update]);
  const setPage = useCallback((page: number) => update({ page: String(page) }), [update]);
  const setPerPage = useCallback((perPage: number) => update({ per_page: String(perPage), page: '1' }), [update]);

  return { ...params, setType, setPage, setPerPage };
}
