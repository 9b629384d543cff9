import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { currentUserQueries } from '../../features/auth/current-user-queries';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import { senderQueries } from '../../features/senders/sender-queries';
import { teamQueries } from '../../features/team/team-queries';
import { templateQueries } from '../../features/templates/template-queries';

/** Pickers offer the team's templates and senders from one page of the most the API gives. */
const PICKER = { page: 1, per_page: 100 } as const;

export function prefetchCampaignFormData(queryClient: QueryClient) {
  void queryClient.prefetchQuery(currentUserQueries.me());
  void queryClient.prefetchQuery(templateQueries.list(PICKER));
  void queryClient.prefetchQuery(senderQueries.list(PICKER));
  void queryClient.prefetchQuery(contactGroupQueries.picker());
  void queryClient.prefetchQuery(teamQueries.settings());
}

/** What the campaign form picks from (templates, senders, groups) and the service's zone its times are in. */
export function useCampaignFormData() {
  const me = useQuery(currentUserQueries.me());
  const templates = useQuery(templateQueries.list(PICKER));
  const senders = useQuery(senderQueries.list(PICKER));
  const groups = useQuery(contactGroupQueries.picker());
  const settings = useQuery(teamQueries.settings());

  return useMemo(
    () => ({
      timeZone: me.data?.app_timezone,
      /** Where a test goes by default (the profile's number); '' when none. */
      ownNumber: me.data?.phone_number ?? '',
      templates: (templates.data?.data ?? []).map(({ uuid, name, sender, body }) => ({ uuid, name, sender, body })),
      senderNames: (senders.data?.data ?? []).map((sender) => sender.sender),
      groupOptions: (groups.data ?? []).map((group) => ({ value: group.uuid, label: group.name })),
      groupNames: new Map((groups.data ?? []).map((group) => [group.uuid, group.name])),
      /** The team's quiet hours in its zone, for the timeline; null when off or not known (yet). */
      quietHours: settings.data?.quiet_hours ? { hours: settings.data.quiet_hours, zone: settings.data.time_zone } : null,
      error: me.error ?? templates.error ?? groups.error,
      refetch: () => {
        void me.refetch();
        void templates.refetch();
        void groups.refetch();
      },
    }),
    [me, templates, senders, groups, settings],
  );
}
