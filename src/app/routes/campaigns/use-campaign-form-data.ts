import { useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useServerSearch } from '../../components/server-search';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import { senderQueries } from '../../features/senders/sender-queries';
import { teamQueries } from '../../features/team/team-queries';
import { templateQueries } from '../../features/templates/template-queries';

export function prefetchCampaignFormData(queryClient: QueryClient) {
  void queryClient.prefetchQuery(currentUserQueries.me());
  void queryClient.prefetchQuery(templateQueries.picker());
  void queryClient.prefetchQuery(senderQueries.picker());
  void queryClient.prefetchQuery(contactGroupQueries.picker());
  void queryClient.prefetchQuery(teamQueries.settings());
}

/** What a saved campaign already chose: named even when it is older than the pickers' first page. */
export interface CampaignChoices {
  template_uuid: string;
  included_contact_groups: readonly string[];
  excluded_contact_groups: readonly string[];
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
      search: {
        template: templateSearch.setSearch,
        sender: senderSearch.setSearch,
        included: includedSearch.setSearch,
        excluded: excludedSearch.setSearch,
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
