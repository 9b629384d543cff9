/**
 * The test sends listed in a campaign's review (issue 32, point 7): their status is read again until
 * it is final, then no more.
 *
 * Seen red: with the review query's refetchInterval taken out (read once), the test stayed "queued"
 * after the service had it delivered.
 */
import { useQuery } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CampaignReview } from '../../../shared/contract';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor } from '../../testing/render';
import { CAMPAIGN_UUID } from './campaign-fixtures';
import { campaignQueries, TEST_SEND_REFRESH_MS } from './campaign-queries';
import { CampaignTestSends } from './campaign-test-sends';

function Review() {
  const review = useQuery(campaignQueries.review(CAMPAIGN_UUID));
  return review.data ? <CampaignTestSends uuid={CAMPAIGN_UUID} testSends={review.data.test_sends} ownNumber="+447700900123" /> : null;
}

afterEach(() => void vi.useRealTimers());

describe('the test sends of the review', () => {
  it('read again while a test is on its way, until its status is final', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    let status = 'queued';
    signIn();
    const fetchMock = mockApi((_request, url) => {
      if (url.pathname !== `/api/2.0/campaigns/${CAMPAIGN_UUID}/review`) return json(page([]));
      const test = { uuid: '5d1c6a70-0000-4000-8000-0000000000f1', phone_number: '+447700900123', created_at: '2030-06-30 10:00:00', status };
      return json({ data: { test_sends: [test] } as unknown as CampaignReview });
    });
    const reviewReads = () => fetchMock.mock.calls.filter(([request]) => new URL(request.url).pathname.endsWith('/review')).length;
    render(<Review />);
    expect(await screen.findByText('queued')).toBeInTheDocument();

    status = 'submitted';
    await vi.advanceTimersByTimeAsync(TEST_SEND_REFRESH_MS);
    expect(await screen.findByText('submitted')).toBeInTheDocument();
    status = 'delivered';
    await vi.advanceTimersByTimeAsync(TEST_SEND_REFRESH_MS);
    expect(await screen.findByText('delivered')).toBeInTheDocument();

    // Final: no more reads.
    await waitFor(() => expect(reviewReads()).toBe(3));
    await vi.advanceTimersByTimeAsync(TEST_SEND_REFRESH_MS * 5);
    expect(reviewReads()).toBe(3);
  });
});
