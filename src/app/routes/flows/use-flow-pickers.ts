import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { contactGroupQueries } from '../../features/contact-groups/contact-group-queries';
import type { FlowPickers } from '../../features/flows/flow-editor-context';
import type { FlowNames } from '../../features/flows/flow-labels';
import { keywordQueries } from '../../features/keywords/keyword-queries';
import { segmentQueries } from '../../features/segments/segment-queries';
import { templateQueries } from '../../features/templates/template-queries';

/** The newest keywords offered (the keywords list has no search). */
const KEYWORD_PAGE = { page: 1, per_page: 100 } as const;

export function prefetchFlowPickers(queryClient: QueryClient) {
  void queryClient.prefetchQuery(keywordQueries.list(KEYWORD_PAGE));
  void queryClient.prefetchQuery(contactGroupQueries.picker());
  void queryClient.prefetchQuery(segmentQueries.picker());
  void queryClient.prefetchQuery(templateQueries.picker());
}

/**
 * What the flow editor picks from and the names its sentences use: the team's newest 100 keywords,
 * groups, segments and templates, and the field names the groups' contacts carry.
 */
export function useFlowPickers(): { pickers: FlowPickers; names: FlowNames; loading: boolean } {
  const keywords = useQuery(keywordQueries.list(KEYWORD_PAGE));
  const groups = useQuery(contactGroupQueries.picker());
  const segments = useQuery(segmentQueries.picker());
  const templates = useQuery(templateQueries.picker());

  const pickers = useMemo<FlowPickers>(
    () => ({
      keywords: (keywords.data?.data ?? []).map(({ uuid, keyword }) => ({ value: uuid, label: keyword })),
      groups: (groups.data ?? []).map(({ uuid, name }) => ({ value: uuid, label: name })),
      segments: (segments.data ?? []).map(({ uuid, name }) => ({ value: uuid, label: name })),
      templates: (templates.data ?? []).map(({ uuid, name }) => ({ value: uuid, label: name })),
      fieldSuggestions: [...new Set((groups.data ?? []).flatMap((group) => group.headers))].sort((a, b) => a.localeCompare(b)),
    }),
    [keywords.data, groups.data, segments.data, templates.data],
  );
  const names = useMemo<FlowNames>(() => {
    const lookup = (options: FlowPickers['groups']) => {
      const byUuid = new Map(options.map((option) => [option.value, option.label]));
      return (uuid: string) => byUuid.get(uuid);
    };
    return { keyword: lookup(pickers.keywords), group: lookup(pickers.groups), segment: lookup(pickers.segments), template: lookup(pickers.templates) };
  }, [pickers]);

  return { pickers, names, loading: keywords.isPending || groups.isPending || segments.isPending || templates.isPending };
}
