import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listTemplates, previewTemplate, showTemplate } from '../../api/gen/sdk.gen';

export interface TemplateListParams {
  page: number;
  per_page: number;
  /** Only the items whose name contains this text, ignoring case (the service's `search`); omitted for all. */
  search?: string;
}

/** The most the API gives in one page: a picker shows the first page, then what the service finds as the user types. */
const PICKER_PAGE = { page: 1, per_page: 100 } as const;
/** The picker's list parameters; an empty search is the first page, shared with the unsearched list. */
const pickerParams = (search: string): TemplateListParams => (search ? { ...PICKER_PAGE, search } : PICKER_PAGE);

export const templateKeys = {
  all: ['templates'] as const,
  lists: () => [...templateKeys.all, 'list'] as const,
  list: (params: TemplateListParams) => [...templateKeys.lists(), params] as const,
  details: () => [...templateKeys.all, 'detail'] as const,
  detail: (uuid: string) => [...templateKeys.details(), uuid] as const,
  previews: (uuid: string) => [...templateKeys.detail(uuid), 'preview'] as const,
  preview: (uuid: string, phoneNumber: string) => [...templateKeys.previews(uuid), phoneNumber] as const,
};

export const templateQueries = {
  list: (params: TemplateListParams) =>
    queryOptions({
      queryKey: templateKeys.list(params),
      queryFn: async ({ signal }) => (await listTemplates({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  /** Templates to pick from: the newest 100, or those whose name contains `search`. */
  picker: (search = '') =>
    queryOptions({
      queryKey: templateKeys.list(pickerParams(search)),
      queryFn: async ({ signal }) => (await listTemplates({ query: pickerParams(search), signal, throwOnError: true })).data,
      select: (page) => page.data,
      placeholderData: keepPreviousData,
    }),
  detail: (uuid: string) =>
    queryOptions({
      queryKey: templateKeys.detail(uuid),
      queryFn: async ({ signal }) => (await showTemplate({ path: { template_uuid: uuid }, signal, throwOnError: true })).data.data,
    }),
  /** The saved template as the service renders it; `phoneNumber` '' for no contact. */
  preview: (uuid: string, phoneNumber: string) =>
    queryOptions({
      queryKey: templateKeys.preview(uuid, phoneNumber),
      queryFn: async ({ signal }) =>
        (
          await previewTemplate({
            path: { template_uuid: uuid },
            query: phoneNumber ? { phone_number: phoneNumber } : undefined,
            signal,
            throwOnError: true,
          })
        ).data.data,
      // A preview reflects the saved template and its links: ask again whenever it is shown.
      staleTime: 0,
    }),
};
