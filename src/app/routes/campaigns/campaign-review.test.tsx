/**
 * The review before scheduling (issue 19, point 3): "Review and schedule" on a new campaign asks
 * the service for a preview of the form and shows the recipients as a sum, the SMS parts, the cost,
 * quiet hours and the personalisation gaps; above the confirm threshold "Schedule" stays off until
 * the recipient count is typed exactly, and only then is the campaign created (`is_draft: false`).
 * A blocking gap is red, with the fallback that fixes it, and keeps "Schedule" off.
 *
 * From the review a new campaign is saved as a draft to send a test (point 6), and scheduling it
 * then changes that draft: the campaign is created once. A draft whose form only moved in time
 * ("Send now") keeps its tests in the review.
 *
 * Seen red: with `confirmed` true whatever was typed (Schedule was enabled at once), with the
 * blocking check left out (the blocked campaign could be scheduled), with the new page scheduling
 * through a create after the review's draft (two campaigns were created), and with tests offered
 * only when the form equals the saved campaign to the second (after "Send now" none were).
 * With the review panel not reading `conflicting`, "groups that disagree" found no note.
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { CampaignReview } from '../../../shared/contract';
import { campaign, CAMPAIGN_UUID, GROUP_UUID } from '../../features/campaigns/campaign-fixtures';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { campaignPageReads } from '../../features/campaigns/campaign-page-reads';
import CampaignNewPage from './campaign-new.page';

function review(overrides: Partial<CampaignReview> = {}): CampaignReview {
  return {
    recipients: { included: 1300, duplicates: 40, excluded: 10, opted_out: 5, total: 1245 },
    segments: { min: 1, typical: 1, max: 2 },
    total_parts: 1300,
    cost: { amount: 58.5, currency: 'GBP' },
    starts_at: '2030-07-01 09:00:00',
    finishes_at: '2030-07-01 09:00:13',
    quiet_hours: { start: '21:00', end: '08:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] },
    quiet_periods: [],
    quiet_zones: [],
    coverage: [{ field: 'first_name', fallback: false, missing: 12, groups_without: [], blocking: false }],
    approval_required: false,
    confirm_threshold: 1000,
    confirm_required: true,
    test_sends: [],
    ...overrides,
  } as CampaignReview;
}

function serve(answer: CampaignReview) {
  signIn();
  const created: unknown[] = [];
  const updated: unknown[] = [];
  const tests: unknown[] = [];
  mockApi(async (request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    if (path === '/campaigns/preview') return json({ data: answer });
    if (path === '/campaigns' && request.method === 'POST') {
      const body = (await request.json()) as { is_draft: boolean };
      created.push(body);
      return json({ data: campaign({ is_draft: body.is_draft }) }, 201);
    }
    if (path === `/campaigns/${CAMPAIGN_UUID}` && request.method === 'PUT') {
      const body = (await request.json()) as { is_draft: boolean };
      updated.push(body);
      return json({ data: campaign({ is_draft: body.is_draft }) });
    }
    if (path === `/campaigns/${CAMPAIGN_UUID}/review`) return json({ data: { ...answer, test_sends: tests.length ? [TEST_SEND] : [] } });
    if (path === `/campaigns/${CAMPAIGN_UUID}/test-sends` && request.method === 'POST') {
      tests.push(await request.json());
      return json({ data: [campaign({ uuid: TEST_SEND.uuid, is_test: true } as never)] }, 201);
    }
    const read = campaignPageReads(path, { body: 'Hi {{first_name}}', preview: 'Hi  ', contacts: 1300 });
    if (read) return read;
    return json(page([]));
  });
  return { created, updated, tests };
}

const TEST_SEND = { uuid: '5d1c6a70-0000-4000-8000-0000000000f1', phone_number: '+447700900123', created_at: '2030-06-30 10:00:00', status: 'delivered' };

async function fillIn(user: ReturnType<typeof render>['user']) {
  await user.type(await screen.findByRole('textbox', { name: /Name/ }), 'Summer sale');
  await user.click(screen.getByRole('combobox', { name: /Template/ }));
  await user.click(await screen.findByRole('option', { name: 'Spring' }));
  await user.click(screen.getByRole('combobox', { name: /Send to these groups/ }));
  await user.click(await screen.findByRole('option', { name: 'Newsletter' }));
  await user.keyboard('{Escape}');
  const send = screen.getByRole('textbox', { name: /Send at/ });
  await user.clear(send);
  await user.type(send, '2030-07-01 09:00');
}

function renderNew() {
  return render(
    <Routes>
      <Route path="/campaigns/new" element={<CampaignNewPage />} />
      <Route path="/campaigns/:uuid" element={<p>Campaign page</p>} />
    </Routes>,
    { route: '/campaigns/new', role: 'editor' },
  );
}

describe('the review before scheduling', { timeout: 30_000 }, () => {
  it('shows the sums and the gaps, and schedules only once the recipient count is typed exactly', async () => {
    const { created } = serve(review());
    const { user } = renderNew();
    await fillIn(user);

    // The form warns of the gap as soon as the audience and the template are known.
    expect(await screen.findByRole('note', { name: '{{first_name}} is missing for some recipients' }, { timeout: 5_000 })).toHaveTextContent(
      '12 recipients have no first_name',
    );

    await user.click(screen.getByRole('button', { name: 'Review and schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Review and schedule' });
    const sum = await within(dialog).findByRole('table', { name: 'Recipients' });
    expect(sum).toHaveTextContent('In the included groups1,300');
    expect(sum).toHaveTextContent('− in more than one group (counted once)40');
    expect(sum).toHaveTextContent('= Recipients1,245');
    expect(dialog).toHaveTextContent('SMS parts per message1 to 2 (mostly 1)');
    expect(dialog).toHaveTextContent('SMS parts in all1,300');
    expect(dialog).toHaveTextContent('Estimated cost£58.50');
    expect(within(dialog).getByRole('region', { name: 'Quiet hours' })).toHaveTextContent('Quiet hours 21:00–08:00');
    expect(within(dialog).getByRole('note', { name: '{{first_name}} is missing for some recipients' })).toHaveTextContent('{{first_name|there}}');

    const scheduleButton = within(dialog).getByRole('button', { name: 'Schedule' });
    const confirm = within(dialog).getByRole('textbox', { name: 'Type 1245 to confirm the number of recipients' });
    expect(scheduleButton).toBeDisabled();
    await user.type(confirm, '1254');
    expect(scheduleButton).toBeDisabled();
    await user.clear(confirm);
    await user.type(confirm, '1245');
    expect(scheduleButton).toBeEnabled();
    expect(created).toEqual([]);

    await user.click(scheduleButton);
    expect(await screen.findByText('Campaign page')).toBeInTheDocument();
    expect(created).toEqual([expect.objectContaining({ name: 'Summer sale', is_draft: false, scheduled_send_date: '2030-07-01 09:00:00' })]);
  });

  it('says how many recipients have groups that disagree on a field, and which group wins (issue 32)', async () => {
    serve(
      review({
        recipients: { included: 1300, duplicates: 40, excluded: 10, opted_out: 5, total: 1245, conflicting: 3 },
        coverage: [{ field: 'first_name', fallback: true, missing: 0, groups_without: [], blocking: false, conflicting: 3 }],
      }),
    );
    const { user } = renderNew();
    await fillIn(user);
    await user.click(await screen.findByRole('button', { name: 'Review and schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Review and schedule' });
    expect(await within(dialog).findByTestId('review-conflicting')).toHaveTextContent(
      '3 recipients are in groups that hold different values for a field the message uses: the group listed first wins.',
    );
    expect(within(dialog).getByRole('note', { name: '{{first_name}} differs between groups for 3 recipients' })).toHaveTextContent(
      'Each gets the value of the group listed first under “Send to these groups”',
    );
  });

  it('keeps a campaign with a blocking gap from being scheduled, and says how to fix it', async () => {
    serve(
      review({
        confirm_required: false,
        cost: null,
        coverage: [{ field: 'first_name', fallback: false, missing: 1245, groups_without: [{ uuid: GROUP_UUID, name: 'Newsletter' }], blocking: true }],
      }),
    );
    const { user } = renderNew();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Review and schedule' }));

    const dialog = await screen.findByRole('dialog', { name: 'Review and schedule' });
    const gap = await within(dialog).findByRole('alert', { name: '{{first_name}} blocks scheduling' });
    expect(gap).toHaveTextContent('No such field in Newsletter.');
    expect(gap).toHaveTextContent('Add a fallback in the template, e.g. {{first_name|there}}.');
    expect(dialog).not.toHaveTextContent('Estimated cost');
    expect(within(dialog).queryByRole('textbox', { name: /to confirm/ })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Schedule' })).toBeDisabled();
  });

  it('saves a new campaign as a draft from the review to send a test, then schedules that draft instead of creating another', async () => {
    const { created, updated, tests: sent } = serve(review({ confirm_required: false }));
    const { user } = renderNew();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Review and schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Review and schedule' });
    await within(dialog).findByRole('table', { name: 'Recipients' });
    expect(within(dialog).queryByRole('region', { name: 'Test sends' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Save draft and test' }));
    const tests = await within(dialog).findByRole('region', { name: 'Test sends' });
    expect(created).toEqual([expect.objectContaining({ name: 'Summer sale', is_draft: true })]);
    await user.type(within(tests).getByRole('textbox', { name: /Send a test to/ }), '+447700900123');
    await user.click(within(tests).getByRole('button', { name: 'Send a test' }));
    expect(await within(tests).findByText(/\+447700900123 ·/)).toBeInTheDocument();
    expect(sent).toEqual([{ phone_numbers: ['+447700900123'] }]);

    await user.click(within(dialog).getByRole('button', { name: 'Schedule' }));
    expect(await screen.findByText('Campaign page')).toBeInTheDocument();
    // Created once, as a draft; scheduling changed that draft.
    expect(created).toHaveLength(1);
    expect(updated).toEqual([expect.objectContaining({ name: 'Summer sale', is_draft: false, scheduled_send_date: '2030-07-01 09:00:00' })]);
  });

  it('keeps the tests of a saved draft when only the times moved, as after “Send now”', async () => {
    const { created } = serve(review({ confirm_required: false }));
    const { user } = renderNew();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Review and schedule' }));
    let dialog = await screen.findByRole('dialog', { name: 'Review and schedule' });
    await user.click(await within(dialog).findByRole('button', { name: 'Save draft and test' }));
    await within(dialog).findByRole('region', { name: 'Test sends' });
    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Review and schedule' })).not.toBeInTheDocument());

    await user.click(screen.getByRole('radio', { name: 'Send now' }));
    await user.click(screen.getByRole('button', { name: 'Review and schedule' }));
    dialog = await screen.findByRole('dialog', { name: 'Review and schedule' });
    expect(await within(dialog).findByRole('region', { name: 'Test sends' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Save draft and test' })).not.toBeInTheDocument();
    expect(created).toHaveLength(1);
  });
});
