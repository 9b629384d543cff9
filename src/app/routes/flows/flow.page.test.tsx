/**
 * A flow's page (issue 36, point 2): "Test with my number" starts a test run for the number typed
 * through POST /flows/{uuid}/runs with `test: true` (any trigger, the flow disabled too), says what a
 * test run does, says it started and keeps the number for the next test; a 409 is shown with the
 * API's reason, a 422 at the number. The runs list each run with the step it is at, titled as the
 * editor titles it, and marks a test run.
 *
 * Seen red: with the number not kept (localStorage left alone), the second page had an empty field;
 * with the form sending no `test`, the mock API answered the disabled flow's 409 and no run started.
 */
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Flow, FlowRun } from '../../api/gen/types.gen';
import { TEST_NUMBER_KEY } from '../../features/flows/flow-test-run';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import FlowPage from './flow.page';

const UUID = '55555555-5555-4555-8555-555555555555';
const TEMPLATE = { uuid: '22222222-2222-4222-8222-222222222222', name: 'Welcome' };
const FLOW = {
  uuid: UUID,
  name: 'Birthday treat',
  trigger: { type: 'anniversary', field: 'birthday', at: '10:00' },
  enabled: false,
  reentry: 'after_end',
  steps: [
    { id: 's_wait', type: 'wait', until_time: '09:00', stats: { entered: 1, sent: 0, clicked: 0, exited: 0 } },
    { id: 's_send', type: 'send', template_uuid: TEMPLATE.uuid, stats: { entered: 0, sent: 0, clicked: 0, exited: 0 } },
  ],
  runs: { active: 0, completed: 0, exited: 0 },
  links: [],
  created_at: '2026-11-20 09:00:00',
  updated_at: '2026-11-20 09:00:00',
} as unknown as Flow;

const run = (phone: string, test: boolean): FlowRun => ({
  uuid: '7a7a7a7a-0000-4000-8000-000000000001',
  flow: { uuid: UUID, name: FLOW.name },
  phone_number: phone,
  state: 'active',
  exit_reason: null,
  step_id: 's_wait',
  next_due_at: '2026-11-22 09:00:00',
  trigger: 'api',
  test,
  started_at: '2026-11-21 09:00:00',
  ended_at: '',
  history: [{ step_id: 's_wait', type: 'wait', entered_at: '2026-11-21 09:00:01', done_at: '', outcome: null }],
});

function serve() {
  signIn();
  const runs: FlowRun[] = [];
  mockApi(async (request, url) => {
    if (url.pathname === `/api/2.0/flows/${UUID}/runs` && request.method === 'POST') {
      const { phone_number, test } = (await request.json()) as { phone_number: string; test?: boolean };
      if (phone_number === 'nope') return apiError(422, 'The given data was invalid.', { phone_number: ['The phone_number "nope" is not a phone number.'] });
      // The flow is disabled: only a test run starts (as the API).
      if (test !== true) return apiError(409, 'The flow is disabled: enable it before starting runs.');
      if (runs.length > 0)
        return apiError(409, `${phone_number.replace('+', '')} is opted out (in default_optouts): no flow runs for it until it texts START.`);
      runs.push(run(phone_number.replace('+', ''), true));
      return json({ data: runs[0] }, 201);
    }
    if (url.pathname === `/api/2.0/flows/${UUID}/runs`) return json(page(runs));
    if (url.pathname === `/api/2.0/flows/${UUID}`) return json({ data: FLOW });
    if (url.pathname === '/api/2.0/templates') return json(page([TEMPLATE]));
    return json(page([]));
  });
}

const renderPage = () =>
  render(
    <Routes>
      <Route path="/flows/:uuid" element={<FlowPage />} />
    </Routes>,
    { route: `/flows/${UUID}`, role: 'editor' },
  );

afterEach(() => localStorage.removeItem(TEST_NUMBER_KEY));

describe('a flow’s test with my number', { timeout: 30_000 }, () => {
  it('starts a test run of the disabled flow for the number typed, whatever the trigger, shows it in the runs, and keeps the number', async () => {
    serve();
    const { user, unmount } = renderPage();
    const form = await screen.findByRole('form', { name: 'Test with my number' });
    expect(within(form).getByText(/even while the flow is disabled: each wait lasts at most a minute/)).toBeInTheDocument();
    expect(within(form).getByText(/counts in none of the flow’s figures/)).toBeInTheDocument();
    await user.type(within(form).getByRole('textbox', { name: 'Your number' }), 'nope');
    await user.click(within(form).getByRole('button', { name: 'Test with my number' }));
    expect(await within(form).findByText('The phone_number "nope" is not a phone number.')).toBeInTheDocument();

    await user.clear(within(form).getByRole('textbox', { name: 'Your number' }));
    await user.type(within(form).getByRole('textbox', { name: 'Your number' }), '+447700900123');
    await user.click(within(form).getByRole('button', { name: 'Test with my number' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('A test run for +447700900123 started');
    const runs = screen.getByRole('region', { name: 'Runs' });
    expect(await within(runs).findByRole('button', { name: /\+447700900123\s*Active\s*Test.*Step 1: Wait/ })).toBeInTheDocument();
    unmount();

    // The next visit offers the same number; a test the API refuses says why.
    const next = renderPage();
    const again = await screen.findByRole('form', { name: 'Test with my number' });
    expect(within(again).getByRole('textbox', { name: 'Your number' })).toHaveValue('+447700900123');
    await next.user.click(within(again).getByRole('button', { name: 'Test with my number' }));
    expect(await within(again).findByRole('alert')).toHaveTextContent('447700900123 is opted out');
  });
});
