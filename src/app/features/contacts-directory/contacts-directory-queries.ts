import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { searchContacts, showContact, showContactConsent } from '../../api/gen/sdk.gen';

export interface ContactSearchParams {
  page: number;
  per_page: number;
  /** Digits the number contains, or text a custom field's value contains; omitted for every number. */
  search?: string;
}

/** Keys from general to specific, so `contactsDirectoryKeys.all` invalidates every search and every contact. */
export const contactsDirectoryKeys = {
  all: ['contacts-directory'] as const,
  lists: () => [...contactsDirectoryKeys.all, 'list'] as const,
  list: (params: ContactSearchParams) => [...contactsDirectoryKeys.lists(), params] as const,
  details: () => [...contactsDirectoryKeys.all, 'detail'] as const,
  detail: (phoneNumber: string) => [...contactsDirectoryKeys.details(), phoneNumber] as const,
  consent: (phoneNumber: string) => [...contactsDirectoryKeys.detail(phoneNumber), 'consent'] as const,
};

export const contactsDirectoryQueries = {
  search: (params: ContactSearchParams) =>
    queryOptions({
      queryKey: contactsDirectoryKeys.list(params),
      queryFn: async ({ signal }) => (await searchContacts({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  /** What the team holds about one number: its groups and fields, messages, clicks, inbound messages and opt-outs. */
  detail: (phoneNumber: string) =>
    queryOptions({
      queryKey: contactsDirectoryKeys.detail(phoneNumber),
      queryFn: async ({ signal }) => (await showContact({ path: { phone_number: phoneNumber }, signal, throwOnError: true })).data.data,
    }),
  /** How and when the number agreed to the team's messages: its consent records, oldest first. */
  consent: (phoneNumber: string) =>
    queryOptions({
      queryKey: contactsDirectoryKeys.consent(phoneNumber),
      queryFn: async ({ signal }) => (await showContactConsent({ path: { phone_number: phoneNumber }, signal, throwOnError: true })).data.data,
    }),
};
