import { describe, expect, it, vi } from 'vitest';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { CampaignForm } from './campaign-form';
import type { CampaignFormValues } from './campaign-form-values';
import { GROUP_UUID, TEMPLATE_UUID, throttledValues, ZONE } from './campaign-fixtures';

const OUTSIDE = 'The pause must lie between the scheduled send date and the scheduled finish date.';

function renderForm(values: CampaignFormValues, onSubmit = vi.fn().mockResolvedValue(undefined)) {
  signIn();
  mockApi((_request, url) => (url.pathname.endsWith('/unique-contacts') ? json(page([], { total: 2340 })) : json(page([]))));
  const result = render(
    <CampaignForm
      defaultValues={values}
      timeZone={ZONE}
      templates={[{ uuid: TEMPLATE_UUID, name: 'Summer', sender: 'HeraldShop' }]}
      senders={['HeraldShop']}
      groups={[{ value: GROUP_UUID, label: 'Newsletter' }]}
      renderTemplatePreview={() => null}
      scheduleLabel="Save"
      onSchedule={onSubmit}
    />,
  );
  return { ...result, onSubmit };
}

function pausedSpans() {
  const timeline = screen.getByRole('region', { name: 'Sending timeline' });
  return within(timeline)
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '')
    .filter((text) => text.startsWith('Paused'));
}

describe('the pause editor of a throttled campaign', { timeout: 20_000 }, () => {
  it('adds and removes pause rows, and the timeline cuts a gap for each', async () => {
    const { user } = renderForm(throttledValues());
    expect(screen.getByText('No pauses: messages are spread evenly from send to finish.')).toBeInTheDocument();
    expect(pausedSpans()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Add pause' }));
    expect(screen.getByRole('textbox', { name: /Pause 1 starts/ })).toHaveValue('2030-07-01 10:00');
    expect(screen.getByRole('textbox', { name: /Pause 1 ends/ })).toHaveValue('2030-07-01 11:00');
    await user.click(screen.getByRole('button', { name: 'Add pause' }));
    expect(screen.getByRole('textbox', { name: /Pause 2 starts/ })).toHaveValue('2030-07-01 12:00');

    expect(pausedSpans()).toEqual(['Paused 1 Jul, 10:00 – 1 Jul, 11:00', 'Paused 1 Jul, 12:00 – 1 Jul, 13:00']);
    expect(screen.getByText(/Sends for 6 h of 8 h, 2 gaps/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove pause 1' }));
    expect(screen.queryByRole('textbox', { name: /Pause 2 starts/ })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Pause 1 starts/ })).toHaveValue('2030-07-01 12:00');
    expect(pausedSpans()).toEqual(['Paused 1 Jul, 12:00 – 1 Jul, 13:00']);
  });

  it('names an overlapping pause and a pause outside the sending window as the service would, as you type', async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    const { user } = renderForm(
      throttledValues({
        pauses: [
          { start_at: '2030-07-01 10:00:00', end_at: '2030-07-01 12:00:00' },
          { start_at: '2030-07-01 13:00:00', end_at: '2030-07-01 14:00:00' },
        ],
      }),
      onSubmit,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    const secondStart = screen.getByRole('textbox', { name: /Pause 2 starts/ });
    await user.clear(secondStart);
    await user.type(secondStart, '2030-07-01 11:30');
    const second = screen.getByRole('group', { name: 'Pause 2' });
    expect(within(second).getByRole('alert')).toHaveTextContent('The pause overlaps pause 1.');

    const firstEnd = screen.getByRole('textbox', { name: /Pause 1 ends/ });
    await user.clear(firstEnd);
    await user.type(firstEnd, '2030-07-01 18:00');
    const first = screen.getByRole('group', { name: 'Pause 1' });
    expect(within(first).getByRole('alert')).toHaveTextContent(OUTSIDE);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).not.toHaveBeenCalled();

    // Fixed: the messages go and the campaign is sent as typed.
    await user.clear(firstEnd);
    await user.type(firstEnd, '2030-07-01 11:00');
    expect(screen.queryByText(OUTSIDE)).not.toBeInTheDocument();
    expect(screen.queryByText('The pause overlaps pause 1.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({
        throttled: true,
        pauses: [
          { start_at: '2030-07-01 10:00:00', end_at: '2030-07-01 11:00:00' },
          { start_at: '2030-07-01 11:30:00', end_at: '2030-07-01 14:00:00' },
        ],
      }),
    );
  });

  it('says when a pause ends before it starts, and puts the service’s 422 on the pause it names', async () => {
    const { ApiError } = await import('../../api/api-error');
    const rejected = new ApiError(422, 'The given data was invalid.', { 'pauses.0': ['The pause overlaps a pause.'] });
    const onSubmit = vi.fn().mockRejectedValue(rejected);
    const { user } = renderForm(throttledValues({ pauses: [{ start_at: '2030-07-01 10:00:00', end_at: '2030-07-01 11:00:00' }] }), onSubmit);

    const end = screen.getByRole('textbox', { name: /Pause 1 ends/ });
    await user.clear(end);
    await user.type(end, '2030-07-01 09:30');
    expect(await screen.findByText('The pause must end after it starts.')).toBeInTheDocument();

    await user.clear(end);
    await user.type(end, '2030-07-01 10:30');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(screen.getByRole('group', { name: 'Pause 1' })).findByRole('alert')).toHaveTextContent('The pause overlaps a pause.');
  });

  it('shows the recipient estimate of the picked groups', async () => {
    renderForm(throttledValues());
    expect(await screen.findByText('≈ 2,340 recipients')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Recipient estimate' })).toHaveTextContent(/default_optouts/);
  });
});
