import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { PER_PAGE_DEFAULT, REPORT_TYPES, type ReportType } from '../../../shared/contract';
import { parsePageParams } from '../../lib/use-page-params';

/** Page sizes offered for a report (the API gives at most 100 rows a page); the first is the default. */
export const REPORT_PAGE_SIZES = [PER_PAGE_DEFAULT, 50, 100] as const;

export interface ReportParams {
  type: ReportType;
  page: number;
  perPage: number;
}

/** Reads `?report=&page=&per_page=` of the campaign page, falling back to the first report's first page. */
export function parseReportParams(search: URLSearchParams): ReportParams {
  const report = search.get('report');
  return {
    type: (REPORT_TYPES as readonly string[]).includes(report ?? '') ? (report as ReportType) : REPORT_TYPES[0],
    ...parsePageParams(search, REPORT_PAGE_SIZES),
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
