/**
 * The "Throttle the sending" switch shows what is saved (issue 21, point 4.1): a saved throttled
 * campaign opens with the switch on and its finish date and pauses shown; one that is not throttled
 * opens with it off and those settings hidden; switching it shows or hides them and sends the
 * matching body (switched on, the finish is derived from the send time: 4 hours after it).
 *
 * Seen red: with the switch registered again (`<Switch {...register('throttled')} />`, uncontrolled,
 * as before b8ef15c), the saved throttled campaign showed its finish date and pause under a switch
 * that was off (first test); without the finish derived when throttling is switched on, the second
 * test sent an empty finish date.
 */
import { describe, expect, it, vi } from 'vitest';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen } from '../../testing/render';
import { CampaignForm } from './campaign-form';
import { campaign, CAMPAIGN_UUID, GROUP_UUID, TEMPLATE_UUID, ZONE } from './campaign-fixtures';
import { campaignFormValues } from './campaign-form-values';
import type { Campaign } from '../../api/gen/types.gen';

function renderSaved(saved: Partial<Campaign>) {
  signIn();
  mockApi(() => json(page([])));
  const onSchedule = vi.fn().mockResolvedValue(undefined);
  const rendered = render(
    <CampaignForm
      defaultValues={campaignFormValues(campaign({ scheduled_send_date: '2030-07-01 09:00:00', expiry_date: '2030-07-02 09:00:00', ...saved }))}
      timeZone={ZONE}
      templates={[{ uuid: TEMPLATE_UUID, name: 'Summer', sender: 'HeraldShop' }]}
      senders={[]}
      groups={[{ value: GROUP_UUID, label: 'Newsletter' }]}
      renderTemplatePreview={() => null}
      scheduleLabel="Save"
      onSchedule={onSchedule}
    />,
  );
  return { ...rendered, onSchedule };
}

const throttleSwitch = () => screen.getByRole('switch', { name: /^Throttle the sending/ });

describe('the throttle switch of a saved campaign', { timeout: 30_000 }, () => {
  it('is on, with the finish date and the pauses shown, when the campaign is throttled', async () => {
    const { user, onSchedule } = renderSaved({
      throttled: true,
      scheduled_finish_date: '2030-07-01 17:00:00',
      pauses: [
        {
          uuid: '5d1c6a70-0000-4000-8000-0000000000d1',
          campaign_uuid: CAMPAIGN_UUID,
          start_at: '2030-07-01 12:00:00',
          end_at: '2030-07-01 13:00:00',
          created_at: '2030-06-01 10:00:00',
          updated_at: '2030-06-01 10:00:00',
        },
      ],
    });

    expect(throttleSwitch()).toBeChecked();
    expect(screen.getByRole('textbox', { name: /Finish by/ })).toHaveValue('2030-07-01 17:00');
    expect(screen.getByRole('textbox', { name: /Pause 1 starts/ })).toHaveValue('2030-07-01 12:00');

    await user.click(throttleSwitch());
    expect(throttleSwitch()).not.toBeChecked();
    expect(screen.queryByRole('textbox', { name: /Finish by/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Pauses' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSchedule).toHaveBeenCalledWith(expect.objectContaining({ throttled: false }));
    expect(onSchedule.mock.calls[0]?.[0]).not.toHaveProperty('scheduled_finish_date');
  });

  it('is off, with those settings hidden, when the campaign is not throttled; switched on, it shows them', async () => {
    const { user, onSchedule } = renderSaved({ throttled: false });

    expect(throttleSwitch()).not.toBeChecked();
    expect(screen.queryByRole('textbox', { name: /Finish by/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Pauses' })).not.toBeInTheDocument();

    await user.click(throttleSwitch());
    expect(throttleSwitch()).toBeChecked();
    expect(screen.getByRole('group', { name: 'Pauses' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSchedule).toHaveBeenCalledWith(expect.objectContaining({ throttled: true, scheduled_finish_date: '2030-07-01 13:00:00', pauses: [] }));
  });
});
