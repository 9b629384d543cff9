import { useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useServerSearch } from '../../components/server-search';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import { segmentQueries } from '../../features/segments/segment-queries';
import { senderQueries } from '../../features/senders/sender-queries';
import { teamQueries } from '../../features/team/team-queries';
import { templateQueries } from '../../features/templates/template-queries';

export function prefetchCampaignFormData(queryClient: QueryClient) {
  void queryClient.prefetchQuery(currentUserQueries.me());
  void queryClient.prefetchQuery(templateQueries.picker());
  void queryClient.prefetchQuery(senderQueries.picker());
  void queryClient.prefetchQuery(contactGroupQueries.picker());
  void queryClient.prefetchQuery(segmentQueries.picker());
  void queryClient.prefetchQuery(teamQueries.settings());
}

/** What a saved campaign already chose: named even when it is older than the pickers' first page. */
export interface CampaignChoices {
  template_uuid: string;
  included_contact_groups: readonly string[];
  excluded_contact_groups: readonly string[];
  included_segments?: readonly string[];
  excluded_segments?: readonly string[];
}

const toTemplateOption = ({ uuid, name, sender, body }: { uuid: string; name: string; sender: string; body: string }) => ({ uuid, name, sender, body });
const toGroupOption = ({ uuid, name }: { uuid: string; name: string }) => ({ value: uuid, label: name });
/** The answers that have come (a stable function: useQueries then keeps its result while they do not change). */
const loadedData = <T>(results: ReadonlyArray<{ data?: T }>): T[] => results.flatMap((result) => (result.data === undefined ? [] : [result.data]));

/**
 * What the campaign form picks from and the service's zone its times are in. Each picker searches the
 * service as the user types (`search`, settled for 250 ms); a saved campaign's template and groups that
 * are not on the first page are read by uuid, so they show by name.
 */
export function useCampaignFormData(choices?: CampaignChoices) {
  const me = useQuery(currentUserQueries.me());
  const settings = useQuery(teamQueries.settings());
  const templateSearch = useServerSearch();
  const senderSearch = useServerSearch();
  const includedSearch = useServerSearch();
  const excludedSearch = useServerSearch();
  const templates = useQuery(templateQueries.picker(templateSearch.debounced));
  const senders = useQuery(senderQueries.picker(senderSearch.debounced));
  const included = useQuery(contactGroupQueries.picker(includedSearch.debounced));
  const excluded = useQuery(contactGroupQueries.picker(excludedSearch.debounced));
  const { options: segmentOptions, searchIncluded: searchIncludedSegments, searchExcluded: searchExcludedSegments } = useCampaignSegments(choices);

  // The first pages (cached already: they are the pickers' answers before anything is typed).
  const firstTemplates = useQuery(templateQueries.picker());
  const firstGroups = useQuery(contactGroupQueries.picker());
  const missingTemplate =
    choices?.template_uuid && firstTemplates.data && !firstTemplates.data.some((template) => template.uuid === choices.template_uuid)
      ? choices.template_uuid
      : undefined;
  const olderTemplate = useQuery({ ...templateQueries.detail(missingTemplate ?? ''), enabled: missingTemplate !== undefined });
  const chosenGroups = useMemo(() => [...new Set([...(choices?.included_contact_groups ?? []), ...(choices?.excluded_contact_groups ?? [])])], [choices]);
  const missingGroups = firstGroups.data ? chosenGroups.filter((uuid) => !firstGroups.data.some((group) => group.uuid === uuid)) : [];
  const olderGroups = useQueries({ queries: missingGroups.map((uuid) => contactGroupQueries.detail(uuid)), combine: loadedData });
  const knownTemplates = useMemo(
    () => [...(firstTemplates.data ?? []), ...(olderTemplate.data ? [olderTemplate.data] : [])].map(toTemplateOption),
    [firstTemplates.data, olderTemplate.data],
  );
  const knownGroups = useMemo(() => [...(firstGroups.data ?? []), ...olderGroups].map(toGroupOption), [firstGroups.data, olderGroups]);

  return useMemo(
    () => ({
      timeZone: me.data?.app_timezone,
      /** Where a test goes by default (the profile's number); '' when none. */
      ownNumber: me.data?.phone_number ?? '',
      templates: (templates.data ?? []).map(toTemplateOption),
      /** Templates the form can name whatever was searched: the first page and the saved campaign's older template. */
      knownTemplates,
      senderNames: senders.data ?? [],
      groupOptions: (included.data ?? []).map(toGroupOption),
      excludedGroupOptions: (excluded.data ?? []).map(toGroupOption),
      /** Groups the form can name whatever was searched: the first page and the saved campaign's older groups. */
      knownGroups,
      /** Issue 35: the segment pickers' options (a failure to read them leaves them empty; the form still works with groups). */
      segments: segmentOptions,
      search: {
        template: templateSearch.setSearch,
        sender: senderSearch.setSearch,
        included: includedSearch.setSearch,
        excluded: excludedSearch.setSearch,
        includedSegments: searchIncludedSegments,
        excludedSegments: searchExcludedSegments,
      },
      /** The team's quiet hours in its zone, for the timeline; null when off or not known (yet). */
      quietHours: settings.data?.quiet_hours ? { hours: settings.data.quiet_hours, zone: settings.data.time_zone } : null,
      error: me.error ?? firstTemplates.error ?? firstGroups.error,
      refetch: () => {
        void me.refetch();
        void templates.refetch();
        void included.refetch();
        void excluded.refetch();
      },
    }),
    [
      me,
      templates,
      senders,
      included,
      excluded,
      segmentOptions,
      searchIncludedSegments,
      searchExcludedSegments,
      settings,
      firstTemplates.error,
      firstGroups.error,
      knownTemplates,
      knownGroups,
      templateSearch.setSearch,
      senderSearch.setSearch,
      includedSearch.setSearch,
      excludedSearch.setSearch,
    ],
  );
}

/**
 * Issue 35: the team's segments for the campaign form's two segment pickers, each searched on the
 * service as the user types; a saved campaign's segments older than the first page are read by uuid.
 */
function useCampaignSegments(choices?: CampaignChoices) {
  const includedSearch = useServerSearch();
  const excludedSearch = useServerSearch();
  const first = useQuery(segmentQueries.picker());
  const included = useQuery(segmentQueries.picker(includedSearch.debounced));
  const excluded = useQuery(segmentQueries.picker(excludedSearch.debounced));
  const chosen = useMemo(() => [...new Set([...(choices?.included_segments ?? []), ...(choices?.excluded_segments ?? [])])], [choices]);
  const missing = first.data ? chosen.filter((uuid) => !first.data.some((segment) => segment.uuid === uuid)) : [];
  const older = useQueries({ queries: missing.map((uuid) => segmentQueries.detail(uuid)), combine: loadedData });
  const options = useMemo(
    () => ({
      included: (included.data ?? []).map(toGroupOption),
      excluded: (excluded.data ?? []).map(toGroupOption),
      known: [...(first.data ?? []), ...older].map(toGroupOption),
    }),
    [included.data, excluded.data, first.data, older],
  );
  return { options, searchIncluded: includedSearch.setSearch, searchExcluded: excludedSearch.setSearch };
}
