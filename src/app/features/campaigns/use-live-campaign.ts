import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Campaign, CampaignSummary } from '../../api/gen/types.gen';
import { campaignKeys, campaignQueries } from './campaign-queries';
import { refreshIntervals, sendRate, sendingCounts, type CountSample } from './sending-progress';

/**
 * A campaign and its counts, refreshing by themselves while its messages move (refreshIntervals),
 * with the send rate measured between two readings of the counts. Each interval is decided again
 * whenever either query changes; the page being hidden pauses it (TanStack's default).
 */
export function useLiveCampaign(uuid: string, timeZone: string | undefined) {
  const queryClient = useQueryClient();
  const intervals = (campaign: Campaign | undefined, summary: CampaignSummary | undefined) =>
    refreshIntervals({ campaign, summary, timeZone, now: Date.now() });

  const campaign = useQuery({
    ...campaignQueries.detail(uuid),
    refetchInterval: (query) => intervals(query.state.data, queryClient.getQueryData(campaignKeys.summary(uuid))).campaign,
  });
  const summary = useQuery({
    ...campaignQueries.summary(uuid),
    refetchInterval: (query) => intervals(queryClient.getQueryData(campaignKeys.detail(uuid)), query.state.data).summary,
  });

  const rate = useSendRate(summary.data && sendingCounts(summary.data).sent, summary.dataUpdatedAt);
  return { campaign, summary, sendRate: rate };
}

/** Remembers the last two readings of the sent count (one per fetch of the counts). */
function useSendRate(sent: number | undefined, at: number): number | null {
  const [samples, setSamples] = useState<{ previous?: CountSample; latest?: CountSample }>({});
  // A new reading replaces the older one during render (React's "adjust state on a prop change").
  if (sent !== undefined && at !== samples.latest?.at) setSamples({ previous: samples.latest, latest: { sent, at } });
  return samples.previous && samples.latest ? sendRate(samples.previous, samples.latest) : null;
}
