import { useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Condition } from '../../../shared/contract/segments';
import { useServerSearch } from '../../components/server-search';
import { campaignQueries } from '../../features/campaigns/campaign-queries';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import type { SegmentPickers } from '../../features/segments/condition-editor';
import type { ConditionNames } from '../../features/segments/condition-sentences';

/** The newest campaigns offered by a behaviour condition (the campaigns list has no search: the picker filters these). */
const CAMPAIGN_PAGE = { page: 1, per_page: 100 } as const;

export function prefetchSegmentFormData(queryClient: QueryClient) {
  void queryClient.prefetchQuery(contactGroupQueries.picker());
  void queryClient.prefetchQuery(campaignQueries.list(CAMPAIGN_PAGE));
}

const toOption = ({ uuid, name }: { uuid: string; name: string }) => ({ value: uuid, label: name });
/** The answers that have come, and whether any is still awaited (a stable function: useQueries then keeps its result while they do not change). */
const loaded = <T>(results: ReadonlyArray<{ data?: T; isPending: boolean }>) => ({
  data: results.flatMap((result) => (result.data === undefined ? [] : [result.data])),
  pending: results.some((result) => result.isPending),
});

/** The groups and campaigns the conditions name (a group's inside a group of conditions too). */
function namedIn(conditions: readonly Condition[]): { groups: string[]; campaigns: string[] } {
  const leaves = conditions.flatMap((condition) => (condition.type === 'group_of_conditions' ? condition.conditions : [condition]));
  return {
    groups: [...new Set(leaves.flatMap((leaf) => (leaf.type === 'group' ? [leaf.group_uuid] : [])))],
    campaigns: [...new Set(leaves.flatMap((leaf) => (leaf.type === 'event' && leaf.campaign_uuid ? [leaf.campaign_uuid] : [])))],
  };
}

const NO_CONDITIONS: readonly Condition[] = [];

/**
 * What the segment builder picks from, and the names its sentences need: the team's groups (searched
 * on the service as the user types), the field names their contacts carry (the suggestions of the
 * field input, as the template editor's), and the newest campaigns. The groups and campaigns a saved
 * segment names that are not among them are read by uuid, so they show by name.
 */
export function useSegmentFormData(saved: readonly Condition[] = NO_CONDITIONS) {
  const groupSearch = useServerSearch();
  const firstGroups = useQuery(contactGroupQueries.picker());
  const foundGroups = useQuery(contactGroupQueries.picker(groupSearch.debounced));
  const campaigns = useQuery(campaignQueries.list(CAMPAIGN_PAGE));
  const named = useMemo(() => namedIn(saved), [saved]);
  const missingGroups = firstGroups.data ? named.groups.filter((uuid) => !firstGroups.data.some((group) => group.uuid === uuid)) : [];
  const { data: olderGroups, pending: groupsPending } = useQueries({ queries: missingGroups.map((uuid) => contactGroupQueries.detail(uuid)), combine: loaded });
  const missingCampaigns = campaigns.data ? named.campaigns.filter((uuid) => !campaigns.data.data.some((campaign) => campaign.uuid === uuid)) : [];
  const { data: olderCampaigns, pending: campaignsPending } = useQueries({
    queries: missingCampaigns.map((uuid) => campaignQueries.detail(uuid)),
    combine: loaded,
  });

  const pickers = useMemo<SegmentPickers>(
    () => ({
      fieldSuggestions: [...new Set((firstGroups.data ?? []).flatMap((group) => group.headers))].sort((a, b) => a.localeCompare(b)),
      groups: {
        data: (foundGroups.data ?? []).map(toOption),
        known: [...(firstGroups.data ?? []), ...olderGroups].map(toOption),
        onSearch: groupSearch.setSearch,
      },
      campaigns: { data: (campaigns.data?.data ?? []).map(toOption), known: olderCampaigns.map(toOption) },
    }),
    [firstGroups.data, foundGroups.data, olderGroups, campaigns.data, olderCampaigns, groupSearch.setSearch],
  );
  const names = useMemo<ConditionNames>(() => {
    const groups = new Map([...(pickers.groups.known ?? []), ...pickers.groups.data].map((option) => [option.value, option.label]));
    const campaignNames = new Map([...(pickers.campaigns.known ?? []), ...pickers.campaigns.data].map((option) => [option.value, option.label]));
    return { group: (uuid) => groups.get(uuid), campaign: (uuid) => campaignNames.get(uuid) };
  }, [pickers]);

  return {
    pickers,
    names,
    /** Still reading what a saved segment names: its sentences would say "not found" for a moment. */
    loadingNames: firstGroups.isPending || campaigns.isPending || groupsPending || campaignsPending,
  };
}
