import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { listCampaigns, templateEncoding } from '../../api/gen/sdk.gen';
import { templateKeys } from './template-queries';

/** A body measured against the real recipients of some groups (`templateUuid` counts its links at their short length). */
export interface AudienceMeasureInput {
  body: string;
  templateUuid?: string;
  /** Group uuids, sorted, so the same choice in another order is the same query. */
  contactGroups: readonly string[];
}

/** The most the API gives in one page: more pending campaigns than that are counted, not listed. */
const PENDING_PAGE = { page: 1, per_page: 100 } as const;

/** Under `templateKeys.all`, so saving a template asks again. */
export const templateUsageKeys = {
  audiences: () => [...templateKeys.all, 'audience'] as const,
  audience: (input: AudienceMeasureInput) => [...templateUsageKeys.audiences(), input] as const,
  pendingCampaigns: (uuid: string) => [...templateKeys.detail(uuid), 'pending-campaigns'] as const,
};

export const templateUsageQueries = {
  /** SMS parts per message over the groups' recipients, after personalisation and short links. */
  audience: (input: AudienceMeasureInput) =>
    queryOptions({
      queryKey: templateUsageKeys.audience(input),
      queryFn: async ({ signal }) =>
        (
          await templateEncoding({
            body: { body: input.body, template_uuid: input.templateUuid, contact_groups: [...input.contactGroups] },
            signal,
            throwOnError: true,
          })
        ).data.data,
      placeholderData: keepPreviousData,
    }),
  /** The template's scheduled campaigns (status 0, drafts included), newest first: what saving it changes. */
  pendingCampaigns: (uuid: string) =>
    queryOptions({
      queryKey: templateUsageKeys.pendingCampaigns(uuid),
      queryFn: async ({ signal }) => (await listCampaigns({ query: { ...PENDING_PAGE, status: 0, template_uuid: uuid }, signal, throwOnError: true })).data,
      // Campaigns change on other pages, whose mutations do not know these keys: ask again when the editor opens
      // (the route's prefetch and the page's mount, moments apart, share one request).
      staleTime: 5_000,
    }),
};
