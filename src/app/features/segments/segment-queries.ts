import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { countSegment, countUnsavedSegment, listSegmentContacts, listSegments, showSegment, showSegmentRevenue } from '../../api/gen/sdk.gen';
import type { SegmentDraft } from './segment-form-values';

export interface SegmentListParams {
  page: number;
  per_page: number;
  /** Only the segments whose name contains this text, ignoring case; omitted for all. */
  search?: string;
}

export interface SegmentContactListParams {
  page: number;
  per_page: number;
}

/** The most the API gives in one page: a picker shows the first page, then what the service finds as the user types. */
const PICKER_PAGE = { page: 1, per_page: 100 } as const;
const pickerParams = (search: string): SegmentListParams => (search ? { ...PICKER_PAGE, search } : PICKER_PAGE);

/** Keys from general to specific, so `segmentKeys.all` invalidates every segment query (counts and contacts too). */
export const segmentKeys = {
  all: ['segments'] as const,
  lists: () => [...segmentKeys.all, 'list'] as const,
  list: (params: SegmentListParams) => [...segmentKeys.lists(), params] as const,
  details: () => [...segmentKeys.all, 'detail'] as const,
  detail: (uuid: string) => [...segmentKeys.details(), uuid] as const,
  count: (uuid: string) => [...segmentKeys.detail(uuid), 'count'] as const,
  contacts: (uuid: string) => [...segmentKeys.detail(uuid), 'contacts'] as const,
  revenue: (uuid: string) => [...segmentKeys.detail(uuid), 'revenue'] as const,
  contactPage: (uuid: string, params: SegmentContactListParams) => [...segmentKeys.contacts(uuid), params] as const,
  draftCounts: () => [...segmentKeys.all, 'draft-count'] as const,
  draftCount: (draft: SegmentDraft) => [...segmentKeys.draftCounts(), draft] as const,
};

export const segmentQueries = {
  list: (params: SegmentListParams) =>
    queryOptions({
      queryKey: segmentKeys.list(params),
      queryFn: async ({ signal }) => (await listSegments({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  /** Segments to pick from (the campaign form): the newest 100, or those whose name contains `search`. */
  picker: (search = '') =>
    queryOptions({
      queryKey: segmentKeys.list(pickerParams(search)),
      queryFn: async ({ signal }) => (await listSegments({ query: pickerParams(search), signal, throwOnError: true })).data,
      select: (page) => page.data,
      placeholderData: keepPreviousData,
    }),
  detail: (uuid: string) =>
    queryOptions({
      queryKey: segmentKeys.detail(uuid),
      queryFn: async ({ signal }) => (await showSegment({ path: { segment_uuid: uuid }, signal, throwOnError: true })).data.data,
    }),
  /** How many numbers the saved segment has now (evaluated live by the service: never cached for long). */
  count: (uuid: string) =>
    queryOptions({
      queryKey: segmentKeys.count(uuid),
      queryFn: async ({ signal }) => (await countSegment({ path: { segment_uuid: uuid }, signal, throwOnError: true })).data.data.count,
      staleTime: 0,
    }),
  /** The saved segment's numbers, by number, evaluated live. */
  contacts: (uuid: string, params: SegmentContactListParams) =>
    queryOptions({
      queryKey: segmentKeys.contactPage(uuid, params),
      queryFn: async ({ signal }) => (await listSegmentContacts({ path: { segment_uuid: uuid }, query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
      staleTime: 0,
    }),
  /** The campaigns that sent to the segment, with its recipients, orders and revenue in each (recorded at their start). */
  revenue: (uuid: string) =>
    queryOptions({
      queryKey: segmentKeys.revenue(uuid),
      queryFn: async ({ signal }) => (await showSegmentRevenue({ path: { segment_uuid: uuid }, signal, throwOnError: true })).data.data,
    }),
  /** The builder's live count: how many numbers conditions not yet saved match now (a read, though it is a POST). */
  draftCount: (draft: SegmentDraft) =>
    queryOptions({
      queryKey: segmentKeys.draftCount(draft),
      queryFn: async ({ signal }) => (await countUnsavedSegment({ body: draft, signal, throwOnError: true })).data.data.count,
      placeholderData: keepPreviousData,
    }),
};
