import { useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useServerSearch } from '../../components/server-search';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import type { PickerOption } from '../../features/keywords/keyword-form-values';
import { webhookQueries } from '../../features/webhooks/webhook-queries';

export function prefetchKeywordTargets(queryClient: QueryClient) {
  void queryClient.prefetchQuery(contactGroupQueries.picker());
  void queryClient.prefetchQuery(webhookQueries.picker());
}

const toOption = ({ uuid, name }: { uuid: string; name: string }): PickerOption => ({ value: uuid, label: name });
/** The answers that have come (a stable function: useQueries then keeps its result while they do not change). */
const loadedData = <T>(results: ReadonlyArray<{ data?: T }>): T[] => results.flatMap((result) => (result.data === undefined ? [] : [result.data]));

/** The team's contact groups and webhooks (the first page of each), which the keywords list names. */
export function useKeywordTargets() {
  const groups = useQuery(contactGroupQueries.picker());
  const webhooks = useQuery(webhookQueries.picker());
  return useMemo(
    () => ({
      groupNames: new Map((groups.data ?? []).map((group) => [group.uuid, group.name])),
      webhookNames: new Map((webhooks.data ?? []).map((webhook) => [webhook.uuid, webhook.name])),
      isPending: groups.isPending || webhooks.isPending,
      error: groups.error ?? webhooks.error,
      refetch: () => {
        void groups.refetch();
        void webhooks.refetch();
      },
    }),
    [groups, webhooks],
  );
}

/** The uuids a saved keyword already acts on. */
export interface KeywordChoices {
  contact_groups_uuid: readonly string[];
  webhooks_uuid: readonly string[];
}

/**
 * What the keyword form's pickers offer: the groups and webhooks the service finds as the user types
 * (`search`, settled for 250 ms), and names for the chosen ones whatever was found: the first page,
 * and a saved keyword's targets that are older than it, read by uuid.
 */
export function useKeywordPickers(choices?: KeywordChoices) {
  const groupSearch = useServerSearch();
  const webhookSearch = useServerSearch();
  const groups = useQuery(contactGroupQueries.picker(groupSearch.debounced));
  const webhooks = useQuery(webhookQueries.picker(webhookSearch.debounced));
  const firstGroups = useQuery(contactGroupQueries.picker());
  const firstWebhooks = useQuery(webhookQueries.picker());
  const missing = (chosen: readonly string[] | undefined, first: ReadonlyArray<{ uuid: string }> | undefined) =>
    first ? (chosen ?? []).filter((uuid) => !first.some((item) => item.uuid === uuid)) : [];
  const olderGroups = useQueries({
    queries: missing(choices?.contact_groups_uuid, firstGroups.data).map((uuid) => contactGroupQueries.detail(uuid)),
    combine: loadedData,
  });
  const olderWebhooks = useQueries({
    queries: missing(choices?.webhooks_uuid, firstWebhooks.data).map((uuid) => webhookQueries.detail(uuid)),
    combine: loadedData,
  });
  const knownGroups = useMemo(() => [...(firstGroups.data ?? []), ...olderGroups].map(toOption), [firstGroups.data, olderGroups]);
  const knownWebhooks = useMemo(() => [...(firstWebhooks.data ?? []), ...olderWebhooks].map(toOption), [firstWebhooks.data, olderWebhooks]);
  const groupOptions = useMemo(() => (groups.data ?? []).map(toOption), [groups.data]);
  const webhookOptions = useMemo(() => (webhooks.data ?? []).map(toOption), [webhooks.data]);
  return {
    groupOptions,
    webhookOptions,
    knownGroups,
    knownWebhooks,
    search: { groups: groupSearch.setSearch, webhooks: webhookSearch.setSearch },
  };
}
