import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listContactGroups, listContacts, showContactGroup } from '../../api/gen/sdk.gen';

export interface ContactGroupListParams {
  page: number;
  per_page: number;
  /** Only the items whose name contains this text, ignoring case (the service's `search`); omitted for all. */
  search?: string;
}

export interface ContactListParams {
  page: number;
  per_page: number;
  /** Digits the phone number contains; omitted for every contact. */
  search?: string;
}

/** The most the API gives in one page: a picker shows the first page, then what the service finds as the user types. */
const PICKER_PAGE = { page: 1, per_page: 100 } as const;
/** The picker's list parameters; an empty search is the first page, shared with the unsearched list. */
const pickerParams = (search: string): ContactGroupListParams => (search ? { ...PICKER_PAGE, search } : PICKER_PAGE);

/** Keys from general to specific, so `contactGroupKeys.all` invalidates every group and contact query. */
export const contactGroupKeys = {
  all: ['contact-groups'] as const,
  lists: () => [...contactGroupKeys.all, 'list'] as const,
  list: (params: ContactGroupListParams) => [...contactGroupKeys.lists(), params] as const,
  details: () => [...contactGroupKeys.all, 'detail'] as const,
  detail: (uuid: string) => [...contactGroupKeys.details(), uuid] as const,
  contacts: (uuid: string) => [...contactGroupKeys.detail(uuid), 'contacts'] as const,
  contactPage: (uuid: string, params: ContactListParams) => [...contactGroupKeys.contacts(uuid), params] as const,
};

export const contactGroupQueries = {
  list: (params: ContactGroupListParams) =>
    queryOptions({
      queryKey: contactGroupKeys.list(params),
      queryFn: async ({ signal }) => (await listContactGroups({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  /** Groups to pick from: the newest 100 (also the field-name suggestions of templates), or those whose name contains `search`. */
  picker: (search = '') =>
    queryOptions({
      queryKey: contactGroupKeys.list(pickerParams(search)),
      queryFn: async ({ signal }) => (await listContactGroups({ query: pickerParams(search), signal, throwOnError: true })).data,
      select: (page) => page.data,
      placeholderData: keepPreviousData,
    }),
  detail: (uuid: string) =>
    queryOptions({
      queryKey: contactGroupKeys.detail(uuid),
      queryFn: async ({ signal }) => (await showContactGroup({ path: { contact_group_uuid: uuid }, signal, throwOnError: true })).data.data,
    }),
  contacts: (uuid: string, params: ContactListParams) =>
    queryOptions({
      queryKey: contactGroupKeys.contactPage(uuid, params),
      queryFn: async ({ signal }) => (await listContacts({ path: { contact_group_uuid: uuid }, query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
};
