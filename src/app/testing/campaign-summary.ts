import type { CampaignSummary } from '../api/gen/types.gen';

/** A campaign's summary: every count 0 but those given. */
export function summaryOf(counts: Partial<CampaignSummary> = {}): CampaignSummary {
  return {
    recipients: 0,
    queued: 0,
    submitted: 0,
    delivered: 0,
    failed: 0,
    unsent: 0,
    clicks: 0,
    human_clicks: 0,
    bot_clicks: 0,
    in_doubt: 0,
    opt_outs: 0,
    held_for_quiet_hours: 0,
    ...counts,
  };
}
