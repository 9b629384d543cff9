import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import { linkQueries } from '../../features/links/link-queries';
import { senderQueries } from '../../features/senders/sender-queries';
import { sampleShortLinks } from '../../features/templates/message-draft';
import { vanityDomainQueries } from '../../features/vanity-domains/vanity-domain-queries';

/** The sender picker offers the team's senders from one page of the most the API gives. */
const SENDER_PICKER = { page: 1, per_page: 100 } as const;

export function prefetchTemplateEditorData(queryClient: QueryClient, templateUuid?: string) {
  void queryClient.prefetchQuery(senderQueries.list(SENDER_PICKER));
  void queryClient.prefetchQuery(vanityDomainQueries.picker());
  void queryClient.prefetchQuery(contactGroupQueries.picker());
  if (templateUuid) void queryClient.prefetchQuery(linkQueries.ofTemplate(templateUuid));
}

/** What the template editor needs besides the template: senders, link domains, the template's links, known field names, contact groups. */
export function useTemplateEditorData(templateUuid?: string) {
  const senders = useQuery(senderQueries.list(SENDER_PICKER));
  const vanityDomains = useQuery(vanityDomainQueries.picker());
  const contactGroups = useQuery(contactGroupQueries.picker());
  const links = useQuery({ ...linkQueries.ofTemplate(templateUuid ?? ''), enabled: Boolean(templateUuid) });

  const senderNames = useMemo(() => (senders.data?.data ?? []).map((sender) => sender.sender), [senders.data]);
  const domains = useMemo(() => vanityDomains.data ?? [], [vanityDomains.data]);
  const shortLinks = useMemo(() => sampleShortLinks(links.data ?? [], domains), [links.data, domains]);
  const fieldSuggestions = useMemo(() => [...new Set((contactGroups.data ?? []).flatMap((group) => group.headers))], [contactGroups.data]);
  const groups = useMemo(() => (contactGroups.data ?? []).map(({ uuid, name }) => ({ uuid, name })), [contactGroups.data]);

  return { senderNames, vanityDomains: domains, shortLinks, fieldSuggestions, contactGroups: groups };
}
