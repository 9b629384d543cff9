/**
 * Drafts and "Send now" (issue 19, point 2): a draft is saved with `is_draft: true` whatever its
 * send time; scheduling sends `is_draft: false` and refuses a send time more than 5 minutes past;
 * "Send now" takes the service's now at the moment of scheduling; the expiry follows the send time
 * until it is edited; only an admin sees "Send through quiet hours".
 *
 * Seen red: with the past rule applied to drafts too (the draft of a past time was refused), with
 * submitAs not moving the send time for "Send now" (the default send time went), and with
 * `follows.expiry` never cleared (the edited expiry moved with the send time).
 */
import { describe, expect, it, vi } from 'vitest';
import { parseTimestamp } from '../../../shared/time/local-timestamps';
import { DURATIONS, serviceTimestamp } from '../../lib/service-zone';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen } from '../../testing/render';
import { CampaignForm } from './campaign-form';
import { GROUP_UUID, TEMPLATE_UUID, throttledValues, ZONE } from './campaign-fixtures';
import type { CampaignFormValues } from './campaign-form-values';

function renderForm(values: Partial<CampaignFormValues> = {}, { canIgnoreQuietHours = false } = {}) {
  signIn();
  mockApi(() => json(page([])));
  const onSchedule = vi.fn().mockResolvedValue(undefined);
  const onSaveDraft = vi.fn().mockResolvedValue(undefined);
  const rendered = render(
    <CampaignForm
      defaultValues={throttledValues({ throttled: false, ...values })}
      timeZone={ZONE}
      templates={[{ uuid: TEMPLATE_UUID, name: 'Summer', sender: 'HeraldShop' }]}
      senders={[]}
      groups={[{ value: GROUP_UUID, label: 'Newsletter' }]}
      renderTemplatePreview={() => null}
      canIgnoreQuietHours={canIgnoreQuietHours}
      scheduleLabel="Schedule"
      onSchedule={onSchedule}
      onSaveDraft={onSaveDraft}
    />,
  );
  return { ...rendered, onSchedule, onSaveDraft };
}

const PAST = { scheduled_send_date: '2020-01-06 09:00:00', expiry_date: '2040-01-07 09:00:00' };

describe('drafts, Send now and the send time rules', { timeout: 20_000 }, () => {
  it('saves a draft of a past send time, but refuses to schedule it', async () => {
    const { user, onSchedule, onSaveDraft } = renderForm(PAST);

    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('The send time is more than 5 minutes in the past. Pick a later time, or choose “Send now”.')).toBeInTheDocument();
    expect(onSchedule).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(onSaveDraft).toHaveBeenCalledWith(expect.objectContaining({ is_draft: true, scheduled_send_date: '2020-01-06 09:00:00' }));
  });

  it('schedules with is_draft false and the service’s now for “Send now”', async () => {
    const { user, onSchedule } = renderForm(PAST);

    await user.click(screen.getByRole('radio', { name: 'Send now' }));
    expect(screen.queryByRole('textbox', { name: /Send at/ })).not.toBeInTheDocument();
    const before = Date.now();
    await user.click(screen.getByRole('button', { name: 'Schedule' }));

    expect(onSchedule).toHaveBeenCalledTimes(1);
    const input = onSchedule.mock.calls[0]![0] as { scheduled_send_date: string; expiry_date: string; is_draft: boolean };
    expect(input.is_draft).toBe(false);
    const send = parseTimestamp(input.scheduled_send_date, ZONE)!.getTime();
    expect(send).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(send).toBeLessThanOrEqual(Date.now());
    // The loaded expiry (far from its send time) does not follow; a new campaign's does (next test).
    expect(input).not.toHaveProperty('send_now');
  });

  it('moves the expiry with the send time until the expiry is edited', async () => {
    const { user, onSchedule } = renderForm();
    const send = screen.getByRole('textbox', { name: /Send at/ });
    const expiry = screen.getByRole('textbox', { name: /Expires at/ });

    await user.clear(send);
    await user.type(send, '2030-08-01 10:30');
    expect(expiry).toHaveValue('2030-08-02 10:30');

    await user.clear(expiry);
    await user.type(expiry, '2030-08-05 12:00');
    await user.clear(send);
    await user.type(send, '2030-08-03 08:00');
    expect(expiry).toHaveValue('2030-08-05 12:00');

    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(onSchedule).toHaveBeenCalledWith(expect.objectContaining({ scheduled_send_date: '2030-08-03 08:00:00', expiry_date: '2030-08-05 12:00:00' }));
  });

  it('gives “Send now” an expiry a day after now for a new campaign', async () => {
    const now = serviceTimestamp(ZONE);
    const { user, onSchedule } = renderForm({ scheduled_send_date: '2030-07-01 09:00:00', expiry_date: '2030-07-02 09:00:00' });
    await user.click(screen.getByRole('radio', { name: 'Send now' }));
    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    const input = onSchedule.mock.calls[0]![0] as { scheduled_send_date: string; expiry_date: string };
    expect(input.scheduled_send_date >= now).toBe(true);
    expect(parseTimestamp(input.expiry_date, ZONE)!.getTime() - parseTimestamp(input.scheduled_send_date, ZONE)!.getTime()).toBe(DURATIONS.day);
  });

  it('offers “Send through quiet hours” to admins only', async () => {
    const editor = renderForm();
    expect(screen.queryByRole('switch', { name: /Send through quiet hours/ })).not.toBeInTheDocument();
    editor.unmount();

    const { user, onSchedule } = renderForm({}, { canIgnoreQuietHours: true });
    await user.click(screen.getByRole('switch', { name: /Send through quiet hours/ }));
    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(onSchedule).toHaveBeenCalledWith(expect.objectContaining({ ignore_quiet_hours: true, is_draft: false }));
  });
});
