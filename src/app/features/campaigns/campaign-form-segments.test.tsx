/**
 * The campaign form's segment pickers (issue 35, point 1): segments are picked to send to and to
 * leave out beside the groups, and a campaign with only a segment (no group) is valid and sent as
 * such; a segment sent to cannot also be left out. Without segments given, the form shows no pickers.
 *
 * Seen red: with the form's rule still asking for a group when a segment is picked (“The included
 * contact groups field is required.”, nothing scheduled).
 */
import { describe, expect, it, vi } from 'vitest';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen } from '../../testing/render';
import { CampaignForm } from './campaign-form';
import { GROUP_UUID, TEMPLATE_UUID, throttledValues, ZONE } from './campaign-fixtures';
import type { CampaignFormValues } from './campaign-form-values';

const GOLD = '7a3c0e55-0000-4000-8000-0000000000d1';
const LAPSED = '7a3c0e55-0000-4000-8000-0000000000d2';
const SEGMENTS = [
  { value: GOLD, label: 'Gold members' },
  { value: LAPSED, label: 'Lapsed buyers' },
];

function renderForm(values: Partial<CampaignFormValues>, withSegments = true) {
  signIn();
  mockApi(() => json(page([])));
  const onSchedule = vi.fn().mockResolvedValue(undefined);
  const rendered = render(
    <CampaignForm
      defaultValues={throttledValues({ throttled: false, ...values })}
      timeZone={ZONE}
      templates={[{ uuid: TEMPLATE_UUID, name: 'Summer', sender: 'HeraldShop' }]}
      senders={[]}
      groups={[{ value: GROUP_UUID, label: 'Newsletter' }]}
      segments={withSegments ? { included: SEGMENTS, excluded: SEGMENTS } : undefined}
      renderTemplatePreview={() => null}
      scheduleLabel="Schedule"
      onSchedule={onSchedule}
    />,
  );
  return { ...rendered, onSchedule };
}

describe('the campaign form’s segments', { timeout: 30_000 }, () => {
  it('schedules a campaign sent to a segment alone, leaving another out', async () => {
    const { user, onSchedule } = renderForm({ included_contact_groups: [] });

    await user.click(screen.getByRole('combobox', { name: 'Send to these segments' }));
    await user.click(await screen.findByRole('option', { name: 'Gold members' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('combobox', { name: 'Leave out these segments' }));
    // A segment sent to cannot also be left out.
    expect(await screen.findByRole('option', { name: 'Gold members' })).toHaveAttribute('data-combobox-disabled', 'true');
    await user.click(screen.getByRole('option', { name: 'Lapsed buyers' }));
    await user.keyboard('{Escape}');
    expect(screen.getByText('The segments’ contacts are counted in the review, and again when sending starts.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(onSchedule).toHaveBeenCalledWith(
      expect.objectContaining({ included_contact_groups: [], included_segments: [GOLD], excluded_segments: [LAPSED], is_draft: false }),
    );
  });

  it('still asks for a group or a segment', async () => {
    const { user, onSchedule } = renderForm({ included_contact_groups: [] });
    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('The included contact groups field is required.')).toBeInTheDocument();
    expect(onSchedule).not.toHaveBeenCalled();
  });

  it('shows no segment pickers when the page gives no segments', () => {
    renderForm({}, false);
    expect(screen.queryByRole('combobox', { name: 'Send to these segments' })).not.toBeInTheDocument();
  });
});
