import { queryOptions } from '@tanstack/react-query';
import { listLinks } from '../../api/gen/sdk.gen';

/** A template has few links; one page of the most the API gives holds them all. */
const ALL_OF_TEMPLATE = { page: 1, per_page: 100 } as const;

export const linkKeys = {
  all: ['links'] as const,
  lists: () => [...linkKeys.all, 'list'] as const,
  ofTemplate: (templateUuid: string) => [...linkKeys.lists(), { template_uuid: templateUuid }] as const,
};

export const linkQueries = {
  ofTemplate: (templateUuid: string) =>
    queryOptions({
      queryKey: linkKeys.ofTemplate(templateUuid),
      queryFn: async ({ signal }) => (await listLinks({ query: { ...ALL_OF_TEMPLATE, template_uuid: templateUuid }, signal, throwOnError: true })).data.data,
    }),
};
