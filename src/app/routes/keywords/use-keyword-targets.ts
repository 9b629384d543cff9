import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import type { PickerOption } from '../../features/keywords/keyword-form-values';
import { webhookQueries } from '../../features/webhooks/webhook-queries';

export function prefetchKeywordTargets(queryClient: QueryClient) {
  void queryClient.prefetchQuery(contactGroupQueries.picker());
  void queryClient.prefetchQuery(webhookQueries.picker());
}

const toOption = ({ uuid, name }: { uuid: string; name: string }): PickerOption => ({ value: uuid, label: name });

/** The team's contact groups and webhooks, which a keyword's switches pick by name. */
export function useKeywordTargets() {
  const groups = useQuery(contactGroupQueries.picker());
  const webhooks = useQuery(webhookQueries.picker());
  return useMemo(
    () => ({
      groupOptions: (groups.data ?? []).map(toOption),
      webhookOptions: (webhooks.data ?? []).map(toOption),
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
