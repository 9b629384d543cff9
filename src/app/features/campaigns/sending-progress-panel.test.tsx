/**
 * The sending progress panel of a campaign's page.
 *
 * Issue 32, seen red: with the Clicks count reading `clicks` (people and link-preview bots together),
 * it said 1,234, not the overview's 1,200 people with 34 bots beside them.
 */
import { describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../../shared/time/local-timestamps';
import { render, screen, within } from '../../testing/render';
import { campaign, CAMPAIGN_UUID, ZONE } from './campaign-fixtures';
import { CampaignBadges } from './campaign-badges';
import { SendingProgressPanel } from './sending-progress-panel';
import { summaryOf } from '../../testing/campaign-summary';

const at = (timestamp: string) => parseTimestamp(timestamp, ZONE)!.getTime();

/** Halfway through a throttled day (09:00–17:00 BST), 9,600 messages written. */
const HALFWAY = summaryOf({
  recipients: 9600,
  queued: 5000,
  submitted: 300,
  delivered: 4000,
  failed: 200,
  unsent: 100,
  clicks: 1234,
  human_clicks: 1200,
  bot_clicks: 34,
  opt_outs: 17,
});

function counts() {
  const list = screen.getByRole('list', { name: 'Message counts' });
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.getAttribute('aria-label'));
}

describe('the sending progress panel', () => {
  it('shows where a throttled campaign’s messages are, its rate, and sent against the plan by now', () => {
    render(
      <SendingProgressPanel
        campaign={campaign({ status: 1, throttled: true, scheduled_send_date: '2030-07-01 09:00:00', scheduled_finish_date: '2030-07-01 17:00:00' })}
        summary={HALFWAY}
        countedAt={at('2030-07-01 13:00:00')}
        timeZone={ZONE}
        sendRate={1.52}
      />,
    );

    expect(screen.getByText('Sent 4,500 of 9,600 (46%)')).toBeInTheDocument();
    expect(counts()).toEqual([
      'Recipients: 9,600',
      'Sent: 4,500',
      'Delivered: 4,000',
      'Awaiting receipt: 300',
      'Failed: 200',
      'Unsent: 100',
      'Queued: 5,000',
      // People's clicks, as the overview counts them; the 34 link previews beside them, not in them.
      'Clicks: 1,200 (34 by bots)',
      'Opt-outs: 17',
    ]);
    const bar = screen.getByRole('progressbar', { name: 'Messages sent' });
    expect(bar).toHaveAttribute('aria-valuenow', '4500');
    expect(bar).toHaveAttribute('aria-valuemax', '9600');
    expect(bar).toHaveAttribute('aria-valuetext', '4,500 of 9,600 sent: 4,000 delivered, 300 awaiting receipt, 200 failed; 100 unsent, 5,000 queued');

    const rate = screen.getByRole('group', { name: 'Send rate' });
    expect(rate).toHaveTextContent('Sending 1.5 messages a second');
    // Half the open time has passed: 4,800 of 9,600 were due.
    expect(rate).toHaveTextContent('Planned by now: 4,800 · sent: 4,500 — 300 behind the plan (the plan averages 0.3 a second)');
    expect(screen.getByText(/Live · refreshes every 2 s/)).toBeInTheDocument();
  });

  it('leaves out a pause’s time from the plan and says when sending is ahead', () => {
    render(
      <SendingProgressPanel
        campaign={campaign({
          status: 1,
          throttled: true,
          scheduled_send_date: '2030-07-01 09:00:00',
          scheduled_finish_date: '2030-07-01 17:00:00',
          pauses: [
            {
              uuid: '5d1c6a70-0000-4000-8000-0000000000d1',
              campaign_uuid: CAMPAIGN_UUID,
              start_at: '2030-07-01 10:00:00',
              end_at: '2030-07-01 12:00:00',
              created_at: '2030-06-01 10:00:00',
              updated_at: '2030-06-01 10:00:00',
            },
          ],
        })}
        summary={HALFWAY}
        countedAt={at('2030-07-01 13:00:00')}
        timeZone={ZONE}
        sendRate={null}
      />,
    );
    const rate = screen.getByRole('group', { name: 'Send rate' });
    expect(rate).toHaveTextContent('Measuring the send rate…');
    // 2 of 6 open hours have passed: 3,200 due.
    expect(rate).toHaveTextContent('Planned by now: 3,200 · sent: 4,500 — 1,300 ahead of the plan');
  });

  it('shows a sent campaign’s final counts without a rate or a plan', () => {
    render(
      <SendingProgressPanel
        campaign={campaign({ status: 2, finished_sending_at: '2026-03-02 09:00:04' })}
        summary={summaryOf({ recipients: 3, submitted: 1, delivered: 2 })}
        countedAt={at('2026-03-02 09:00:05')}
        timeZone={ZONE}
        sendRate={3}
      />,
    );
    expect(screen.getByText('Sent 3 of 3 (100%)')).toBeInTheDocument();
    expect(screen.getByText(/Waiting for 1 receipt · Finished 2 Mar 2026, 09:00/)).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Delivered: 2' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Send rate' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Live/)).not.toBeInTheDocument();
  });

  it('counts the recipients of a pending campaign and says when sending starts', () => {
    render(
      <SendingProgressPanel
        campaign={campaign()}
        summary={summaryOf({ recipients: 12 })}
        countedAt={at('2026-03-01 10:00:00')}
        timeZone={ZONE}
        sendRate={null}
      />,
    );
    expect(screen.getByText('12 recipients · nothing is sent before 2 Mar 2026, 09:00')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Messages sent' })).toHaveAttribute('aria-valuenow', '0');
  });

  it('says plainly when messages are in doubt, and says nothing when none are', () => {
    const props = { campaign: campaign({ status: 2 }), countedAt: at('2030-07-01 13:00:00'), timeZone: ZONE, sendRate: null };
    const { unmount } = render(<SendingProgressPanel {...props} summary={{ ...HALFWAY, queued: 0, in_doubt: 0 }} />);
    expect(screen.queryByRole('note')).toBeNull();
    unmount();
    render(<SendingProgressPanel {...props} summary={{ ...HALFWAY, queued: 0, in_doubt: 7 }} />);
    expect(screen.getByRole('note')).toHaveTextContent('7 messages were interrupted on the way to the carrier');
  });

  // Issue 32, point 6. Seen red: with the rate line reading only `sendRate` (as before), the panel said "Sending 0
  // messages a second" while two people waited for quiet hours; with `campaignStatus` ignoring `paused_until`, "Sending".
  it('says how many people quiet hours hold, not "Sending 0 messages a second"', () => {
    const props = { campaign: campaign({ status: 1 }), countedAt: at('2030-07-01 13:00:00'), timeZone: ZONE };
    const held = { ...HALFWAY, queued: 2, held_for_quiet_hours: 2 };
    const { unmount } = render(<SendingProgressPanel {...props} summary={held} sendRate={0} />);
    const rate = screen.getByRole('group', { name: 'Send rate' });
    expect(rate).toHaveTextContent('Nothing to send now: held for quiet hours (2 people)');
    expect(rate).not.toHaveTextContent('Sending 0 messages a second');
    unmount();
    render(<SendingProgressPanel {...props} summary={{ ...held, held_for_quiet_hours: 1 }} sendRate={3} />);
    expect(screen.getByRole('group', { name: 'Send rate' })).toHaveTextContent('Sending 3 messages a second · held for quiet hours (1 person)');
  });

  it('says "Paused until HH:MM" for a sending campaign inside a planned pause, "Sending" otherwise', () => {
    const sending = campaign({ status: 1, throttled: true, scheduled_finish_date: '2030-07-01 17:00:00' });
    const { unmount } = render(<CampaignBadges campaign={{ ...sending, paused_until: '2030-07-01 14:30:00' }} />);
    expect(screen.getByText('Paused until 14:30')).toBeInTheDocument();
    expect(screen.queryByText('Sending')).toBeNull();
    unmount();
    render(<CampaignBadges campaign={sending} />);
    expect(screen.getByText('Sending')).toBeInTheDocument();
  });
});
