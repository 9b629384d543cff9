import { describe, expect, it, vi } from 'vitest';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen } from '../../testing/render';
import { CampaignForm } from './campaign-form';
import { GROUP_UUID, TEMPLATE_UUID, throttledValues } from './campaign-fixtures';

describe('the campaign form’s times', { timeout: 20_000 }, () => {
  it('sends the typed local time to the service unchanged', async () => {
    signIn();
    mockApi(() => json(page([])));
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const { user } = render(
      <CampaignForm
        defaultValues={throttledValues({ throttled: false })}
        timeZone="Europe/London"
        templates={[{ uuid: TEMPLATE_UUID, name: 'Summer', sender: 'HeraldShop' }]}
        senders={[]}
        groups={[{ value: GROUP_UUID, label: 'Newsletter' }]}
        renderTemplatePreview={() => null}
        scheduleLabel="Schedule"
        onSchedule={onSubmit}
      />,
    );
    const send = screen.getByRole('textbox', { name: /Send at/ });
    await user.clear(send);
    await user.type(send, '2030-07-01 08:15');
    await user.click(screen.getByRole('button', { name: 'Schedule' }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ scheduled_send_date: '2030-07-01 08:15:00', expiry_date: '2030-07-02 08:15:00', throttled: false }),
    );
    expect(onSubmit.mock.calls[0]?.[0]).not.toHaveProperty('pauses');
  });
});
