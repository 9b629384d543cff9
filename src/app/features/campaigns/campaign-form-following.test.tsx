/**
 * "Finish by" and "Expires at" move with "Send at" until they are set by hand (issue 21, point 4.2):
 * a time the form derived (a day, and 4 hours, after the send time) shifts by as much as the send
 * time moves; once the marketer edits it, it stays. A saved campaign's stored times count as set by
 * hand unless they are exactly what the form would have derived from its stored send time.
 *
 * Seen red: with the form as it was (every time followed, at its loaded distance from the send time),
 * the saved campaign's hand-set expiry and finish moved with the send time (first test); with
 * `follows.finish` never cleared, the edited finish moved too (third test); without the finish
 * derived when throttling is switched on, a saved campaign that was not throttled showed an empty
 * Finish by (fourth test).
 */
import { describe, expect, it, vi } from 'vitest';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen } from '../../testing/render';
import { CampaignForm } from './campaign-form';
import { campaign, GROUP_UUID, TEMPLATE_UUID, ZONE } from './campaign-fixtures';
import { campaignFormValues, newCampaignValues, type CampaignFormValues } from './campaign-form-values';

function renderForm(defaultValues: CampaignFormValues) {
  signIn();
  mockApi(() => json(page([])));
  const onSchedule = vi.fn().mockResolvedValue(undefined);
  const rendered = render(
    <CampaignForm
      defaultValues={defaultValues}
      timeZone={ZONE}
      templates={[{ uuid: TEMPLATE_UUID, name: 'Summer', sender: 'HeraldShop' }]}
      senders={[]}
      groups={[{ value: GROUP_UUID, label: 'Newsletter' }]}
      renderTemplatePreview={() => null}
      scheduleLabel="Schedule"
      onSchedule={onSchedule}
    />,
  );
  return { ...rendered, onSchedule };
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });

async function typeInto(user: ReturnType<typeof renderForm>['user'], name: RegExp, text: string) {
  await user.clear(field(name));
  await user.type(field(name), text);
}

describe('times that follow the send time', { timeout: 30_000 }, () => {
  it('keeps a saved campaign’s expiry and finish where they are stored when the send time moves', async () => {
    const saved = campaign({
      throttled: true,
      scheduled_send_date: '2030-07-01 09:00:00',
      scheduled_finish_date: '2030-07-01 17:00:00',
      expiry_date: '2030-07-03 09:00:00',
    });
    const { user, onSchedule } = renderForm(campaignFormValues(saved));

    await typeInto(user, /Send at/, '2030-07-01 10:00');
    expect(field(/Expires at/)).toHaveValue('2030-07-03 09:00');
    expect(field(/Finish by/)).toHaveValue('2030-07-01 17:00');

    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(onSchedule).toHaveBeenCalledWith(
      expect.objectContaining({
        scheduled_send_date: '2030-07-01 10:00:00',
        expiry_date: '2030-07-03 09:00:00',
        scheduled_finish_date: '2030-07-01 17:00:00',
      }),
    );
  });

  it('moves a saved campaign’s times that are what the form derives (a day and 4 hours after sending)', async () => {
    const saved = campaign({
      throttled: true,
      scheduled_send_date: '2030-07-01 09:00:00',
      scheduled_finish_date: '2030-07-01 13:00:00',
      expiry_date: '2030-07-02 09:00:00',
    });
    const { user } = renderForm(campaignFormValues(saved));

    await typeInto(user, /Send at/, '2030-07-05 11:30');
    expect(field(/Expires at/)).toHaveValue('2030-07-06 11:30');
    expect(field(/Finish by/)).toHaveValue('2030-07-05 15:30');
  });

  it('moves a new campaign’s finish with the send time until the finish is edited, and the expiry on its own terms', async () => {
    const { user, onSchedule } = renderForm({
      ...newCampaignValues(ZONE),
      name: 'Autumn',
      sender: 'HeraldShop',
      template_uuid: TEMPLATE_UUID,
      included_contact_groups: [GROUP_UUID],
    });
    await user.click(screen.getByRole('switch', { name: /Throttle the sending/ }));

    await typeInto(user, /Send at/, '2030-09-01 08:00');
    expect(field(/Finish by/)).toHaveValue('2030-09-01 12:00');
    expect(field(/Expires at/)).toHaveValue('2030-09-02 08:00');

    await typeInto(user, /Finish by/, '2030-09-01 20:00');
    await typeInto(user, /Send at/, '2030-09-01 09:00');
    expect(field(/Finish by/)).toHaveValue('2030-09-01 20:00');
    expect(field(/Expires at/)).toHaveValue('2030-09-02 09:00');

    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(onSchedule).toHaveBeenCalledWith(
      expect.objectContaining({
        scheduled_send_date: '2030-09-01 09:00:00',
        scheduled_finish_date: '2030-09-01 20:00:00',
        expiry_date: '2030-09-02 09:00:00',
      }),
    );
  });

  it('derives the finish of a saved campaign that was not throttled when throttling is switched on', async () => {
    const saved = campaign({ throttled: false, scheduled_send_date: '2030-07-01 09:00:00', expiry_date: '2030-07-04 09:00:00', scheduled_finish_date: '' });
    const { user } = renderForm(campaignFormValues(saved));

    await user.click(screen.getByRole('switch', { name: /Throttle the sending/ }));
    expect(field(/Finish by/)).toHaveValue('2030-07-01 13:00');
    await typeInto(user, /Send at/, '2030-07-02 09:00');
    expect(field(/Finish by/)).toHaveValue('2030-07-02 13:00');
    expect(field(/Expires at/)).toHaveValue('2030-07-04 09:00');
  });
});
