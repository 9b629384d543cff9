/**
 * The campaign form's date pickers pick times (issue 21, point 4.3): every date-time field (Send at,
 * Expires at, Finish by, each pause's start and end) has a labelled button that opens a dialog
 * with a calendar and a time, reached and used by keyboard as well as by pointer; what is picked is
 * sent as the wall time in the service's zone.
 *
 * Seen red: with the field as it was (Mantine's DateInput, a calendar of days only) there is no
 * “Pick the day and time” button and no Time input, so the first three tests fail at their first
 * query (the last one guards that a read-only form offers no picker).
 */
import { describe, expect, it, vi } from 'vitest';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { CampaignForm } from './campaign-form';
import { GROUP_UUID, TEMPLATE_UUID, throttledValues, ZONE } from './campaign-fixtures';
import type { CampaignFormValues } from './campaign-form-values';

function renderForm(values: Partial<CampaignFormValues> = {}, { readOnly = false } = {}) {
  signIn();
  mockApi(() => json(page([])));
  const onSchedule = vi.fn().mockResolvedValue(undefined);
  const rendered = render(
    <CampaignForm
      defaultValues={throttledValues(values)}
      timeZone={ZONE}
      templates={[{ uuid: TEMPLATE_UUID, name: 'Summer', sender: 'HeraldShop' }]}
      senders={[]}
      groups={[{ value: GROUP_UUID, label: 'Newsletter' }]}
      renderTemplatePreview={() => null}
      scheduleLabel="Schedule"
      onSchedule={onSchedule}
      readOnly={readOnly}
    />,
  );
  return { ...rendered, onSchedule };
}

type User = ReturnType<typeof renderForm>['user'];

/** Opens a field's dialog with the pointer, clicks a day, types a time and closes it with Done. */
async function pick(user: User, label: string, day: string, time: string) {
  await user.click(screen.getByRole('button', { name: `Pick the day and time: ${label}` }));
  const dialog = await screen.findByRole('dialog', { name: `Pick the day and time: ${label}` });
  await user.click(within(dialog).getByRole('button', { name: day }));
  const clock = within(dialog).getByLabelText(/^Time/);
  await user.clear(clock);
  await user.type(clock, time);
  await user.click(within(dialog).getByRole('button', { name: 'Done' }));
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
}

describe('the campaign form’s date-time pickers', { timeout: 30_000 }, () => {
  it('picks a day and a time for Send at, Expires at and Finish by', async () => {
    const { user, onSchedule } = renderForm({ expiry_date: '2030-07-03 09:00:00' });

    await pick(user, 'Send at', '2 July 2030', '08:15');
    expect(screen.getByRole('textbox', { name: /Send at/ })).toHaveValue('2030-07-02 08:15');
    await pick(user, 'Finish by', '2 July 2030', '18:45');
    expect(screen.getByRole('textbox', { name: /Finish by/ })).toHaveValue('2030-07-02 18:45');
    await pick(user, 'Expires at', '4 July 2030', '23:30');
    expect(screen.getByRole('textbox', { name: /Expires at/ })).toHaveValue('2030-07-04 23:30');

    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(onSchedule).toHaveBeenCalledWith(
      expect.objectContaining({
        scheduled_send_date: '2030-07-02 08:15:00',
        scheduled_finish_date: '2030-07-02 18:45:00',
        expiry_date: '2030-07-04 23:30:00',
      }),
    );
  });

  it('picks the times of a pause', async () => {
    const { user, onSchedule } = renderForm({ pauses: [{ start_at: '2030-07-01 12:00:00', end_at: '2030-07-01 13:00:00' }] });

    await pick(user, 'Pause 1 starts', '1 July 2030', '11:20');
    await pick(user, 'Pause 1 ends', '1 July 2030', '14:05');

    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(onSchedule).toHaveBeenCalledWith(expect.objectContaining({ pauses: [{ start_at: '2030-07-01 11:20:00', end_at: '2030-07-01 14:05:00' }] }));
  });

  it('is used by keyboard: the button opens the dialog on the picked day, arrows move, Escape gives the focus back', async () => {
    const { user } = renderForm();
    const button = screen.getByRole('button', { name: 'Pick the day and time: Send at' });
    button.focus();

    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Pick the day and time: Send at' });
    expect(within(dialog).getByRole('button', { name: '1 July 2030' })).toHaveFocus();
    await user.keyboard('{ArrowRight}{Enter}');
    expect(screen.getByRole('textbox', { name: /Send at/ })).toHaveValue('2030-07-02 09:00');

    await user.tab();
    expect(within(dialog).getByLabelText(/^Time/)).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });

  it('offers no picker on a read-only form', () => {
    renderForm({}, { readOnly: true });
    expect(screen.getByRole('textbox', { name: /Send at/ })).toHaveValue('2030-07-01 09:00');
    expect(screen.queryByRole('button', { name: /^Pick the day and time/ })).not.toBeInTheDocument();
  });
});
