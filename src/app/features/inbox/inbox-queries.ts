import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listConversations, listMembers, listSavedReplies, showConversation, showContact } from '../../api/gen/sdk.gen';

/** New messages show within 5 seconds: the list, the open thread and the navbar's count are read again this often. */
export const INBOX_POLL_MS = 4000;
/** A thread shows its newest messages, this many (older ones: the API's next pages). */
export const THREAD_PAGE = 100;

export interface ConversationListParams {
  status?: 'open' | 'closed' | 'snoozed';
  /** A member's uuid, `me` or `none`. */
  assignee?: string;
  unread?: 'true';
  search?: string;
}

/** Keys from general to specific: `inboxKeys.all` refreshes every list, thread and count. */
export const inboxKeys = {
  all: ['inbox'] as const,
  lists: () => [...inboxKeys.all, 'list'] as const,
  list: (params: ConversationListParams) => [...inboxKeys.lists(), params] as const,
  unread: () => [...inboxKeys.all, 'unread'] as const,
  threads: () => [...inboxKeys.all, 'thread'] as const,
  thread: (phoneNumber: string) => [...inboxKeys.threads(), phoneNumber] as const,
  contact: (phoneNumber: string) => [...inboxKeys.all, 'contact', phoneNumber] as const,
  savedReplies: () => [...inboxKeys.all, 'saved-replies'] as const,
  members: () => [...inboxKeys.all, 'members'] as const,
};

export const inboxQueries = {
  list: (params: ConversationListParams) =>
    queryOptions({
      queryKey: inboxKeys.list(params),
      queryFn: async ({ signal }) => (await listConversations({ query: { ...params, per_page: 100 }, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
      refetchInterval: INBOX_POLL_MS,
    }),
  /** The navbar's count: how many conversations have a message the team has not read. */
  unreadCount: () =>
    queryOptions({
      queryKey: inboxKeys.unread(),
      queryFn: async ({ signal }) => (await listConversations({ query: { unread: 'true', per_page: 1 }, signal, throwOnError: true })).data.meta.total,
      refetchInterval: INBOX_POLL_MS,
    }),
  /** The newest messages (oldest first) and the conversation's state; reading marks it read. */
  thread: (phoneNumber: string) =>
    queryOptions({
      queryKey: inboxKeys.thread(phoneNumber),
      queryFn: async ({ signal }) =>
        (await showConversation({ path: { phone_number: phoneNumber }, query: { per_page: THREAD_PAGE }, signal, throwOnError: true })).data,
      refetchInterval: INBOX_POLL_MS,
    }),
  /** The contact directory's read of the number: its groups with their fields. */
  contact: (phoneNumber: string) =>
    queryOptions({
      queryKey: inboxKeys.contact(phoneNumber),
      queryFn: async ({ signal }) => (await showContact({ path: { phone_number: phoneNumber }, signal, throwOnError: true })).data.data,
    }),
  savedReplies: () =>
    queryOptions({
      queryKey: inboxKeys.savedReplies(),
      queryFn: async ({ signal }) => (await listSavedReplies({ query: { per_page: 100 }, signal, throwOnError: true })).data.data,
    }),
  members: () =>
    queryOptions({
      queryKey: inboxKeys.members(),
      queryFn: async ({ signal }) => (await listMembers({ query: { per_page: 100 }, signal, throwOnError: true })).data.data,
    }),
};
