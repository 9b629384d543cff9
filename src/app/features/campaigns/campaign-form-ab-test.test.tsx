/**
 * The campaign form's A/B test (issue 35, point 2): off by default (the body sends nothing of it);
 * switched on, a marketer names the variants, picks a template (and a sender) for each after the
 * first, sets the test, and the body carries `variants` (the first with the campaign's template)
 * and `ab_test`; a saved test opens switched on, and switching it off removes it (`variants: []`).
 *
 * Seen red: with `had` ignored (campaign-form-values.ts `abInput`), switching a saved test off sent
 * no `variants`, so the test would have stayed (third test).
 */
import { describe, expect, it, vi } from 'vitest';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen } from '../../testing/render';
import { CampaignForm } from './campaign-form';
import { campaign, GROUP_UUID, TEMPLATE_UUID, ZONE } from './campaign-fixtures';
import { campaignFormValues } from './campaign-form-values';
import type { Campaign } from '../../api/gen/types.gen';

const OTHER = '5d1c6a70-0000-4000-8000-0000000000a2';

function renderSaved(saved: Partial<Campaign>) {
  signIn();
  mockApi(() => json(page([])));
  const onSchedule = vi.fn().mockResolvedValue(undefined);
  const rendered = render(
    <CampaignForm
      defaultValues={campaignFormValues(campaign({ scheduled_send_date: '2030-07-01 09:00:00', expiry_date: '2030-07-02 09:00:00', ...saved }))}
      timeZone={ZONE}
      templates={[
        { uuid: TEMPLATE_UUID, name: 'Summer', sender: 'HeraldShop' },
        { uuid: OTHER, name: 'Summer, shorter', sender: 'HeraldShop' },
      ]}
      senders={['HeraldShop', 'Shop']}
      groups={[{ value: GROUP_UUID, label: 'Newsletter' }]}
      renderTemplatePreview={() => null}
      scheduleLabel="Save"
      onSchedule={onSchedule}
    />,
  );
  return { ...rendered, onSchedule };
}

const abSwitch = () => screen.getByRole('switch', { name: /^A\/B test/ });

describe('the A/B test of the campaign form', { timeout: 30_000 }, () => {
  it('is off by default, and the body then says nothing of it', async () => {
    const { user, onSchedule } = renderSaved({});
    expect(abSwitch()).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSchedule).toHaveBeenCalledTimes(1);
    expect(onSchedule.mock.calls[0]?.[0]).not.toHaveProperty('variants');
    expect(onSchedule.mock.calls[0]?.[0]).not.toHaveProperty('ab_test');
  });

  it('switched on: variants with their templates and senders, and the settings, in the body', async () => {
    const { user, onSchedule } = renderSaved({});
    await user.click(abSwitch());
    await user.click(screen.getByRole('combobox', { name: 'Variant 2 template' }));
    await user.click(await screen.findByRole('option', { name: 'Summer, shorter' }));
    await user.click(screen.getByRole('combobox', { name: 'Variant 2 sender' }));
    await user.click(await screen.findByRole('option', { name: 'Shop' }));
    const share = screen.getByRole('textbox', { name: /Test share/ });
    await user.clear(share);
    await user.type(share, '30');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSchedule).toHaveBeenCalledWith(
      expect.objectContaining({
        template_uuid: TEMPLATE_UUID,
        variants: [
          { name: 'A', template_uuid: TEMPLATE_UUID },
          { name: 'B', template_uuid: OTHER, sender: 'Shop' },
        ],
        ab_test: { test_share: 30, metric: 'human_click_rate', decide_after_minutes: 120, min_recipients_per_variant: 500 },
      }),
    );
  });

  it('a saved test opens switched on; switched off, the body removes it', async () => {
    const { user, onSchedule } = renderSaved({
      variants: [
        { name: 'Short', template_uuid: TEMPLATE_UUID, sender: '' },
        { name: 'Long', template_uuid: OTHER, sender: '' },
      ],
      ab_test: {
        test_share: 10,
        metric: 'conversion_rate',
        decide_after_minutes: 60,
        min_recipients_per_variant: 100,
        status: 'testing',
        winner: null,
        decided_by: null,
        probability: null,
        decided_at: '',
        sending_minutes: 0,
        results: [],
      },
    });
    expect(abSwitch()).toBeChecked();
    expect(screen.getByRole('textbox', { name: /First variant/ })).toHaveValue('Short');
    expect(screen.getByRole('textbox', { name: 'Variant 2 name' })).toHaveValue('Long');
    await user.click(abSwitch());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSchedule).toHaveBeenCalledWith(expect.objectContaining({ variants: [] }));
    expect(onSchedule.mock.calls[0]?.[0]).not.toHaveProperty('ab_test');
  });
});
