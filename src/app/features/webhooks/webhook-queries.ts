import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listWebhookAttempts, listWebhooks, showWebhook } from '../../api/gen/sdk.gen';

export interface WebhookListParams {
  page: number;
  per_page: number;
  /** Only the items whose name contains this text, ignoring case (the service's `search`); omitted for all. */
  search?: string;
}

/** The most the API gives in one page: a picker shows the first page, then what the service finds as the user types. */
const PICKER_PAGE = { page: 1, per_page: 100 } as const;
const pickerParams = (search: string): WebhookListParams => (search ? { ...PICKER_PAGE, search } : PICKER_PAGE);

export const webhookKeys = {
  all: ['webhooks'] as const,
  lists: () => [...webhookKeys.all, 'list'] as const,
  list: (params: WebhookListParams) => [...webhookKeys.lists(), params] as const,
  details: () => [...webhookKeys.all, 'detail'] as const,
  detail: (uuid: string) => [...webhookKeys.details(), uuid] as const,
  attempts: (uuid: string) => [...webhookKeys.detail(uuid), 'attempts'] as const,
  attemptPage: (uuid: string, params: WebhookListParams) => [...webhookKeys.attempts(uuid), params] as const,
};

export const webhookQueries = {
  list: (params: WebhookListParams) =>
    queryOptions({
      queryKey: webhookKeys.list(params),
      queryFn: async ({ signal }) => (await listWebhooks({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  detail: (uuid: string) =>
    queryOptions({
      queryKey: webhookKeys.detail(uuid),
      queryFn: async ({ signal }) => (await showWebhook({ path: { webhook_uuid: uuid }, signal, throwOnError: true })).data.data,
    }),
  /** Every call made to the webhook, newest first. */
  attempts: (uuid: string, params: WebhookListParams) =>
    queryOptions({
      queryKey: webhookKeys.attemptPage(uuid, params),
      queryFn: async ({ signal }) => (await listWebhookAttempts({ path: { webhook_uuid: uuid }, query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  /** Webhooks to pick from: the newest 100, or those whose name contains `search`. */
  picker: (search = '') =>
    queryOptions({
      queryKey: webhookKeys.list(pickerParams(search)),
      queryFn: async ({ signal }) => (await listWebhooks({ query: pickerParams(search), signal, throwOnError: true })).data,
      select: (page) => page.data,
      placeholderData: keepPreviousData,
    }),
};
