import { useDebouncedCallback } from '@mantine/hooks';
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  DELIVERY_STATUSES,
  NUMBER_SEARCH_MAX,
  PER_PAGE_DEFAULT,
  REPORT_TYPES,
  UNSENT_REASONS,
  type DeliveryStatus,
  type ReportType,
  type UnsentReason,
} from '../../../shared/contract';
import { parsePageParams } from '../../lib/use-page-params';

/** Page sizes offered for a report (the API gives at most 100 rows a page); the first is the default. */
export const REPORT_PAGE_SIZES = [PER_PAGE_DEFAULT, 50, 100] as const;

/** How long the number search waits for the typing to stop before the URL (and the request) follows. */
export const REPORT_SEARCH_DEBOUNCE_MS = 300;

/** The filters a report takes (docs/api-conventions.md#reports): none on the one-row send report. */
export const REPORT_FILTERS: Record<ReportType, { status: boolean; reason: boolean; search: boolean }> = {
  delivery: { status: true, reason: false, search: true },
  alt_delivery: { status: true, reason: false, search: true },
  recipient: { status: false, reason: false, search: true },
  sent: { status: false, reason: false, search: false },
  unsent: { status: false, reason: true, search: true },
  clicks: { status: false, reason: false, search: true },
};

export interface ReportFilterParams {
  status?: DeliveryStatus;
  reason?: UnsentReason;
  /** Digits of the recipient's number. */
  search?: string;
}

export interface ReportParams {
  type: ReportType;
  page: number;
  perPage: number;
  /** The filters of the URL that the report on screen takes (the others are left out). */
  filters: ReportFilterParams;
}

/** The digits of a typed number, as the API searches them (spaces, `+`, brackets and the rest dropped). */
export function searchDigits(text: string): string | undefined {
  return text.replace(/\D/g, '').slice(0, NUMBER_SEARCH_MAX) || undefined;
}

/** Reads `?report=&page=&per_page=&status=&reason=&search=` of the campaign page; a value the API would refuse reads as none. */
export function parseReportParams(search: URLSearchParams): ReportParams {
  const report = search.get('report');
  const type = (REPORT_TYPES as readonly string[]).includes(report ?? '') ? (report as ReportType) : REPORT_TYPES[0];
  const takes = REPORT_FILTERS[type];
  const status = search.get('status');
  const reason = search.get('reason');
  const digits = searchDigits(search.get('search') ?? '');
  return {
    type,
    ...parsePageParams(search, REPORT_PAGE_SIZES),
    filters: {
      ...(takes.status && (DELIVERY_STATUSES as readonly string[]).includes(status ?? '') && { status: status as DeliveryStatus }),
      ...(takes.reason && (UNSENT_REASONS as readonly string[]).includes(reason ?? '') && { reason: reason as UnsentReason }),
      ...(takes.search && digits && { search: digits }),
    },
  };
}

/**
 * The report, page, page size and filters on screen live in the URL: a reload or a shared link opens
 * the same view. The number searched for stays when another report is chosen (one number can be
 * followed across the reports); a status or reason, which belong to one report, do not.
 */
export function useReportParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const params = parseReportParams(searchParams);

  const update = useCallback(
    (changes: Record<string, string | undefined>, options: { replace?: boolean } = {}) =>
      setSearchParams(
        (current) => {
          const updated = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value === undefined) updated.delete(name);
            else updated.set(name, value);
          }
          return updated;
        },
        { preventScrollReset: true, replace: options.replace },
      ),
    [setSearchParams],
  );

  // Another report, page size or filter starts again from the first page.
  const setType = useCallback((type: ReportType) => update({ report: type, page: '1', status: undefined, reason: undefined }), [update]);
  const setPage = useCallback((page: number) => update({ page: String(page) }), [update]);
  const setPerPage = useCallback((perPage: number) => update({ per_page: String(perPage), page: '1' }), [update]);
  const setStatus = useCallback((status: DeliveryStatus | undefined) => update({ status, page: '1' }), [update]);
  const setReason = useCallback((reason: UnsentReason | undefined) => update({ reason, page: '1' }), [update]);
  const clearFilters = useCallback(() => update({ status: undefined, reason: undefined, search: undefined, page: '1' }), [update]);

  // What is typed. The URL holds only its digits, so the box keeps the text as typed ("+44 7700")
  // while it is on its way to the URL and while the URL searches its digits; once the URL searches
  // something else by another way (Back), the box shows the URL's. The URL entry is replaced while
  // typing: Back leaves the search instead of stepping through every digit typed.
  const inUrl = searchParams.get('search') ?? '';
  const [typed, setTyped] = useState<{ text: string; pending: boolean } | null>(null);
  const commitSearch = useDebouncedCallback((text: string) => {
    update({ search: searchDigits(text), page: '1' }, { replace: true });
    setTyped((current) => (current?.text === text ? { text, pending: false } : current));
  }, REPORT_SEARCH_DEBOUNCE_MS);
  // When the URL's search changes, by this box's commit (the typed text's digits) or by another way.
  const [seenInUrl, setSeenInUrl] = useState(inUrl);
  if (seenInUrl !== inUrl) {
    setSeenInUrl(inUrl);
    if (typed && !typed.pending && searchDigits(typed.text) !== searchDigits(inUrl)) setTyped(null);
  }
  const setSearchText = useCallback(
    (text: string) => {
      setTyped({ text, pending: true });
      commitSearch(text);
    },
    [commitSearch],
  );
  const clearAll = useCallback(() => {
    commitSearch.cancel();
    setTyped(null);
    clearFilters();
  }, [commitSearch, clearFilters]);
  const searchText = typed ? typed.text : inUrl;

  return {
    ...params,
    searchText,
    setType,
    setPage,
    setPerPage,
    setStatus,
    setReason,
    setSearchText,
    clearFilters: clearAll,
  };
}
