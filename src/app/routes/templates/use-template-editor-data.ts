import { useQueries, useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useServerSearch } from '../../components/server-search';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import { linkQueries } from '../../features/links/link-queries';
import { senderQueries } from '../../features/senders/sender-queries';
import { sampleShortLinks } from '../../features/templates/message-draft';
import { vanityDomainQueries } from '../../features/vanity-domains/vanity-domain-queries';

export function prefetchTemplateEditorData(queryClient: QueryClient, templateUuid?: string) {
  void queryClient.prefetchQuery(senderQueries.picker());
  void queryClient.prefetchQuery(vanityDomainQueries.picker());
  void queryClient.prefetchQuery(contactGroupQueries.picker());
  if (templateUuid) void queryClient.prefetchQuery(linkQueries.ofTemplate(templateUuid));
}

const NO_GROUPS: readonly string[] = [];
const NO_SENDERS: readonly string[] = [];
const toGroup = ({ uuid, name }: { uuid: string; name: string }) => ({ uuid, name });
/** The answers that have come (a stable function: useQueries then keeps its result while they do not change). */
const loadedData = <T>(results: ReadonlyArray<{ data?: T }>): T[] => results.flatMap((result) => (result.data === undefined ? [] : [result.data]));

/**
 * What the template editor needs besides the template: senders, link domains, the template's links, known field names, contact groups.
 * The sender and group pickers search the service as the user types (`search`, settled for 250 ms); `defaultGroups` (the groups
 * measured against at first) older than the first page are read by uuid, so they show by name.
 */
export function useTemplateEditorData(templateUuid?: string, defaultGroups: readonly string[] = NO_GROUPS) {
  const senderSearch = useServerSearch();
  const groupSearch = useServerSearch();
  const senders = useQuery(senderQueries.picker(senderSearch.debounced));
  const vanityDomains = useQuery(vanityDomainQueries.picker());
  const contactGroups = useQuery(contactGroupQueries.picker());
  const foundGroups = useQuery(contactGroupQueries.picker(groupSearch.debounced));
  const links = useQuery({ ...linkQueries.ofTemplate(templateUuid ?? ''), enabled: Boolean(templateUuid) });
  const missingGroups = contactGroups.data ? defaultGroups.filter((uuid) => !contactGroups.data.some((group) => group.uuid === uuid)) : [];
  const olderGroups = useQueries({ queries: missingGroups.map((uuid) => contactGroupQueries.detail(uuid)), combine: loadedData });

  const senderNames = senders.data ?? NO_SENDERS;
  const domains = useMemo(() => vanityDomains.data ?? [], [vanityDomains.data]);
  const shortLinks = useMemo(() => sampleShortLinks(links.data ?? [], domains), [links.data, domains]);
  const fieldSuggestions = useMemo(() => [...new Set((contactGroups.data ?? []).flatMap((group) => group.headers))], [contactGroups.data]);
  const groups = useMemo(() => (foundGroups.data ?? []).map(toGroup), [foundGroups.data]);
  const knownGroups = useMemo(() => [...(contactGroups.data ?? []), ...olderGroups].map(toGroup), [contactGroups.data, olderGroups]);

  return {
    senderNames,
    onSenderSearch: senderSearch.setSearch,
    vanityDomains: domains,
    shortLinks,
    fieldSuggestions,
    contactGroups: groups,
    knownGroups,
    onGroupSearch: groupSearch.setSearch,
  };
}
