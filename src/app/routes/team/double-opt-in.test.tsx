/**
 * The double opt-in switch (issue 36, point 3): it sends only `double_opt_in`, says it is
 * recommended and why, shows a 422 on the switch, and a member who is not an admin reads the
 * setting as a sentence.
 *
 * Seen red: with `double_opt_in` missing from the form's server field names, the 422 reached no field.
 */
import { describe, expect, it } from 'vitest';
import type { TeamSettings } from '../../api/gen/types.gen';
import { ApiError } from '../../api/api-error';
import { DoubleOptInForm } from '../../features/team/double-opt-in-form';
import { json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { NEW_TEAM_SETTINGS } from '../../testing/team-settings';
import { TeamSettingsSection } from './team-settings-section';

const SLOW = { timeout: 20_000 };

describe('double opt-in', SLOW, () => {
  it('recommends it, sends only the switch, and shows a 422 on it', async () => {
    const sent: unknown[] = [];
    let refuse = false;
    const save = async (input: Partial<TeamSettings>) => {
      sent.push(input);
      if (refuse) throw new ApiError(422, 'The given data was invalid.', { double_opt_in: ['The double opt in must be true or false.'] });
      return { ...NEW_TEAM_SETTINGS, ...input } as TeamSettings;
    };
    const { user } = render(<DoubleOptInForm settings={NEW_TEAM_SETTINGS} onSubmit={save} />);
    const form = screen.getByRole('form', { name: 'Double opt-in' });
    const toggle = within(form).getByRole('switch', { name: /reply YES \(recommended\)/ });
    expect(toggle).not.toBeChecked();
    expect(within(form).getByText(/proves that the number’s owner/)).toBeInTheDocument();
    await user.click(toggle);
    await user.click(within(form).getByRole('button', { name: 'Save double opt-in' }));
    expect(sent).toEqual([{ double_opt_in: true }]);
    expect(toggle).toBeChecked();
    refuse = true;
    await user.click(toggle);
    await user.click(within(form).getByRole('button', { name: 'Save double opt-in' }));
    expect(await within(form).findByText('The double opt in must be true or false.')).toBeInTheDocument();
  });

  it('reads as a sentence for a member who is not an admin', async () => {
    signIn();
    mockApi(async () => json({ data: { ...NEW_TEAM_SETTINGS, double_opt_in: true } }));
    render(<TeamSettingsSection canChange={false} />, { role: 'viewer' });
    const card = await screen.findByRole('region', { name: 'Double opt-in' });
    expect(within(card).getByText(/asked to reply YES, and joins only after YES within 48 hours/)).toBeInTheDocument();
  });
});
