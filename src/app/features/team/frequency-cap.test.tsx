/**
 * Frequency caps in the dashboard (issue 36, point 3): the Team page's card sends the cap when on
 * and null when off, says what counts, puts the service's 422 on the field it names
 * (`frequency_cap.days`), and shows other roles the rule in words; the campaign review says how
 * many recipients the cap would skip if the campaign were sent now, and nothing without a cap.
 *
 * Seen red: with the switch left out of frequencyCapInput (the cap was sent when off, never null);
 * with `frequency_cap.days` missing from the form's field names (the message went only to the
 * toast); with the review panel not rendering FrequencyCapNote (the line was not found).
 */
import { describe, expect, it } from 'vitest';
import type { TeamSettings } from '../../api/gen/types.gen';
import { apiError, json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { NEW_TEAM_SETTINGS } from '../../testing/team-settings';
import { TeamSettingsSection } from '../../routes/team/team-settings-section';
import { campaignReview } from '../campaigns/campaign-fixtures';
import { CampaignReviewPanel } from '../campaigns/campaign-review-panel';

const SLOW = { timeout: 20_000 };

function serve(overrides: Partial<TeamSettings> = {}, answer?: () => Response) {
  signIn();
  const sent: unknown[] = [];
  let settings: TeamSettings = { ...NEW_TEAM_SETTINGS, ...overrides };
  mockApi(async (request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    if (path !== '/team/settings') return apiError(404, `Not mocked: ${request.method} ${path}`);
    if (request.method === 'GET') return json({ data: settings });
    const body = (await request.json()) as Partial<TeamSettings>;
    sent.push(body);
    if (answer) return answer();
    settings = { ...settings, ...body };
    return json({ data: settings });
  });
  return sent;
}

describe('the frequency cap card', SLOW, () => {
  it('turns the cap on with four a week, changes it, and turns it off with null', async () => {
    const sent = serve();
    const { user } = render(<TeamSettingsSection canChange />, { role: 'admin' });
    const form = await screen.findByRole('form', { name: 'Frequency cap' });
    expect(screen.getByText(/Test sends, replies \(keyword and inbox\), opt-in confirmations and steps marked transactional never count/)).toBeInTheDocument();
    await user.click(within(form).getByRole('switch', { name: 'Limit marketing messages per number' }));
    const days = within(form).getByRole('textbox', { name: /Within/ });
    expect(within(form).getByRole('textbox', { name: /At most/ })).toHaveValue('4');
    await user.clear(days);
    await user.type(days, '14');
    await user.click(within(form).getByRole('button', { name: 'Save frequency cap' }));
    expect(
      await screen.findByText('At most 4 marketing messages to a number in any 14 days; those over it are not sent (unsent: frequency cap).'),
    ).toBeInTheDocument();
    await user.click(within(form).getByRole('switch', { name: 'Limit marketing messages per number' }));
    await user.click(within(form).getByRole('button', { name: 'Save frequency cap' }));
    expect(await screen.findByText('No frequency cap: a number gets every marketing message sent to it.')).toBeInTheDocument();
    expect(sent).toEqual([{ frequency_cap: { messages: 4, days: 14 } }, { frequency_cap: null }]);
  });

  it("puts the service's 422 on the field it names", async () => {
    serve({ frequency_cap: { messages: 4, days: 7 } }, () =>
      json(
        { error: { message: 'The given data was invalid.', errors: { 'frequency_cap.days': ['The frequency cap days may not be greater than 90.'] } } },
        422,
      ),
    );
    const { user } = render(<TeamSettingsSection canChange />, { role: 'admin' });
    const form = await screen.findByRole('form', { name: 'Frequency cap' });
    await user.click(within(form).getByRole('button', { name: 'Save frequency cap' }));
    const days = within(form).getByRole('textbox', { name: /Within/ });
    expect(await within(form).findByText('The frequency cap days may not be greater than 90.')).toBeInTheDocument();
    expect(days).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows other roles the rule in words', async () => {
    serve({ frequency_cap: { messages: 1, days: 1 } });
    render(<TeamSettingsSection canChange={false} />, { role: 'viewer' });
    expect(
      await screen.findByText('At most 1 marketing message to a number in any 1 day; those over it are not sent (unsent: frequency cap).'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Frequency cap' })).not.toBeInTheDocument();
  });
});

describe("the review's frequency cap line", () => {
  it('says how many recipients the cap would skip, and nothing without a cap', () => {
    const { rerender } = render(
      <CampaignReviewPanel timeZone="Europe/London" review={campaignReview({ frequency_cap: { messages: 4, days: 7 }, frequency_capped: 12 })} />,
    );
    expect(screen.getByTestId('review-frequency-capped')).toHaveTextContent(
      '12 recipients have already had the team’s frequency cap (4 marketing messages in 7 days): if it is sent now, their messages are not sent (unsent: frequency cap).',
    );
    rerender(<CampaignReviewPanel timeZone="Europe/London" review={campaignReview({ frequency_cap: { messages: 4, days: 7 }, frequency_capped: 0 })} />);
    expect(screen.getByTestId('review-frequency-capped')).toHaveTextContent(
      'The team’s frequency cap (4 marketing messages in 7 days) skips no recipient if it is sent now.',
    );
    rerender(<CampaignReviewPanel timeZone="Europe/London" review={campaignReview()} />);
    expect(screen.queryByTestId('review-frequency-capped')).not.toBeInTheDocument();
  });
});
