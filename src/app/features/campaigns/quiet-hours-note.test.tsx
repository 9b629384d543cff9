/**
 * The review's quiet hours (issue 32, point 6): each zone of the audience that quiet hours hold
 * while the campaign sends is listed with its recipients, whether it is held at the start, and its
 * quiet periods; "None falls" only when no zone is held.
 *
 * Seen red: with the note saying "None falls" whatever `quiet_zones` held (as the review said
 * before it read each recipient's zone), the French recipients held at the start were not listed.
 */
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '../../testing/render';
import { campaignReview } from './campaign-fixtures';
import { QuietHoursNote } from './campaign-review-panel';

const QUIET = { start: '21:00', end: '08:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] } as const;

describe('the quiet hours of the review', () => {
  it('lists each zone held while it sends, with its recipients, its start and its periods', () => {
    render(
      <QuietHoursNote
        review={campaignReview({
          quiet_hours: { ...QUIET, days: [...QUIET.days] },
          quiet_zones: [
            { zone: 'Europe/Paris', recipients: 1, held_at_start: true, periods: [{ start_at: '2030-07-01 20:00:00', end_at: '2030-07-02 07:00:00' }] },
            { zone: 'America/New_York', recipients: 12, held_at_start: false, periods: [{ start_at: '2030-07-02 02:00:00', end_at: '2030-07-02 13:00:00' }] },
          ],
        })}
      />,
    );
    const region = screen.getByRole('region', { name: 'Quiet hours' });
    expect(region).toHaveTextContent('Quiet hours 21:00–08:00');
    expect(region).not.toHaveTextContent('None falls');
    const items = within(screen.getByRole('list', { name: 'Quiet periods while it sends' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Europe\/Paris \(1 recipient\), in quiet hours when it starts: nothing is sent to them 1 Jul 2030,? 20:00 – 2 Jul 2030,? 07:00$/),
      expect.stringMatching(/^America\/New_York \(12 recipients\): nothing is sent to them 2 Jul 2030,? 02:00 – 2 Jul 2030,? 13:00$/),
    ]);
  });

  it('says none falls while it sends when no zone is held, and shows nothing without quiet hours', () => {
    const { unmount } = render(<QuietHoursNote review={campaignReview({ quiet_hours: { ...QUIET, days: [...QUIET.days] }, quiet_zones: [] })} />);
    expect(screen.getByRole('region', { name: 'Quiet hours' })).toHaveTextContent('None falls while it sends, in any recipient’s time zone.');
    unmount();
    render(<QuietHoursNote review={campaignReview({ quiet_hours: null, quiet_zones: [] })} />);
    expect(screen.queryByRole('region', { name: 'Quiet hours' })).toBeNull();
  });
});
