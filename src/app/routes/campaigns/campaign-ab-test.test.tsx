/**
 * The campaign page's A/B test card (issue 35, point 2): each variant's figures and probability of
 * being best, the winner, the "not significant" wording, and for an editor, before the decision, a
 * "Pick as winner" that asks first and then calls the service.
 *
 * Seen red: with the card's pick buttons shown whatever the status, both tests went red (the
 * buttons stayed after the pick, and showed on a decided test).
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Campaign } from '../../api/gen/types.gen';
import { campaign, CAMPAIGN_UUID, TEMPLATE_UUID } from '../../features/campaigns/campaign-fixtures';
import type { Role } from '../../lib/roles';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { campaignPageReads } from '../../features/campaigns/campaign-page-reads';
import CampaignPage from './campaign.page';
import { summaryOf } from '../../testing/campaign-summary';

const result = (name: string, human_clicks: number, probability_best: number | null) => ({
  name,
  recipients: 500,
  sent: 500,
  delivered: 490,
  human_clicks,
  conversions: 0,
  revenue: 0,
  metric_value: human_clicks / 500,
  probability_best,
});
const TESTING: Campaign = campaign({
  status: 1,
  is_locked: true,
  started_sending_at: '2026-03-02 09:00:00',
  variants: [
    { name: 'A', template_uuid: TEMPLATE_UUID, sender: '' },
    { name: 'B', template_uuid: TEMPLATE_UUID, sender: 'Shop' },
  ],
  ab_test: {
    test_share: 20,
    metric: 'human_click_rate',
    decide_after_minutes: 120,
    min_recipients_per_variant: 500,
    status: 'testing',
    winner: null,
    decided_by: null,
    probability: null,
    decided_at: '',
    sending_minutes: 42.5,
    results: [result('A', 50, 0.03), result('B', 80, 0.97)],
  },
});
const decided = (decided_by: 'auto' | 'manual' | 'not_significant', winner: string, probability: number | null): Campaign => ({
  ...TESTING,
  ab_test: { ...TESTING.ab_test!, status: 'decided', winner, decided_by, probability, decided_at: '2026-03-02 11:00:00' },
});

function serve(current: () => Campaign, onPick: (variant: string) => Campaign) {
  signIn();
  const picks: string[] = [];
  mockApi(async (request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    if (request.method === 'POST' && path === `/campaigns/${CAMPAIGN_UUID}/ab-test/winner`) {
      const { variant } = (await request.json()) as { variant: string };
      picks.push(variant);
      return json({ data: onPick(variant) });
    }
    if (path === `/campaigns/${CAMPAIGN_UUID}`) return json({ data: current() });
    if (path === `/campaigns/${CAMPAIGN_UUID}/summary`) return json({ data: summaryOf({ recipients: 5000, queued: 4000, submitted: 1000 }) });
    const read = campaignPageReads(path);
    if (read) return read;
    return json(page([]));
  });
  return picks;
}

const renderCampaign = (role: Role) =>
  render(
    <Routes>
      <Route path="/campaigns/:uuid" element={<CampaignPage />} />
    </Routes>,
    { route: `/campaigns/${CAMPAIGN_UUID}`, role },
  );

describe('the A/B test card', { timeout: 20_000 }, () => {
  it('shows each variant and its probability of being best; an editor picks the winner after a confirmation', async () => {
    let current = TESTING;
    const picks = serve(
      () => current,
      (variant) => (current = decided('manual', variant, null)),
    );
    const { user } = renderCampaign('editor');
    const card = await screen.findByRole('region', { name: 'A/B test' });
    expect(card).toHaveTextContent('42.5 of 120 minutes of sending time counted');
    expect(within(card).getByLabelText('Variant B')).toHaveTextContent('Probability of being best: 97%');
    expect(within(card).getByLabelText('Variant A')).toHaveTextContent('10%');

    await user.click(within(card).getByRole('button', { name: 'Pick B as winner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pick B as the winner?' });
    await user.click(within(dialog).getByRole('button', { name: 'Pick B' }));
    expect(await within(card).findByText('Winner')).toBeInTheDocument();
    expect(picks).toEqual(['B']);
    expect(card).toHaveTextContent('B was picked as the winner by hand');
    expect(within(card).queryByRole('button', { name: /as winner/ })).not.toBeInTheDocument();
  });

  it('once decided: the winner, or that the result was not significant; no pick, and none for a viewer', async () => {
    serve(
      () => decided('not_significant', 'A', 0.62),
      () => TESTING,
    );
    const view = renderCampaign('editor');
    const card = await screen.findByRole('region', { name: 'A/B test' });
    expect(card).toHaveTextContent('The result was not significant');
    expect(card).toHaveTextContent('so the first variant, A, won');
    expect(within(card).queryByRole('button', { name: /as winner/ })).not.toBeInTheDocument();
    view.unmount();

    serve(
      () => TESTING,
      () => TESTING,
    );
    renderCampaign('viewer');
    expect(await screen.findByRole('region', { name: 'A/B test' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /as winner/ })).not.toBeInTheDocument();
  });
});
