/**
 * The review per SMS connection (issue 34, point 2): a table of connection, messages and estimated
 * cost, a red note for the recipients no route covers, and nothing for a team without connections.
 *
 * Seen red: with the panel not rendering `routing`, the table was not found.
 */
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '../../testing/render';
import { campaignReview } from './campaign-fixtures';
import { CampaignReviewPanel } from './campaign-review-panel';

describe('the review per connection', () => {
  it('shows each connection with its messages and estimated cost, and the recipients with no route', () => {
    render(
      <CampaignReviewPanel
        timeZone="Europe/London"
        review={campaignReview({
          routing: {
            connections: [
              { uuid: '5d1c6a70-0000-4000-8000-0000000000c1', name: 'Twilio UK', provider: 'twilio', messages: 9, cost: { amount: 0.315, currency: 'GBP' } },
              { uuid: '5d1c6a70-0000-4000-8000-0000000000c2', name: 'Vonage', provider: 'vonage', messages: 2, cost: null },
            ],
            no_route: 1,
          },
        })}
      />,
    );
    const table = screen.getByRole('table', { name: 'Messages per connection' });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toEqual(['ConnectionMessagesEstimated cost', 'Twilio UK9£0.315', 'Vonage2—']);
    expect(screen.getByRole('note', { name: /No route/ })).toHaveTextContent('1 recipient has no route for their country');
  });

  it('shows nothing per connection for a team without connections', () => {
    render(<CampaignReviewPanel timeZone="Europe/London" review={campaignReview()} />);
    expect(screen.queryByRole('region', { name: 'Connections' })).toBeNull();
  });
});
