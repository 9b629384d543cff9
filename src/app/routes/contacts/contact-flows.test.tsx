/**
 * A contact's flows on its page (issue 36, point 2): the number's runs of the team's flows, newest
 * first, each naming its flow and state and opening onto the steps it went through; a sentence when
 * no flow ran for it.
 *
 * Seen red: with the section left out of the contact page (no "Flows" region in either test).
 */
import { describe, expect, it } from 'vitest';
import { Route, Routes } from 'react-router';
import type { FlowRun } from '../../api/gen/types.gen';
import { ADA_NUMBER, contactDetail } from '../../features/contacts-directory/contacts-directory.fixtures';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import ContactPage from './contact.page';

const WELCOME_RUN: FlowRun = {
  uuid: '7a7a7a7a-0000-4000-8000-000000000001',
  flow: { uuid: '8b8b8b8b-0000-4000-8000-000000000001', name: 'Welcome series' },
  phone_number: ADA_NUMBER,
  state: 'active',
  exit_reason: null,
  step_id: 's_wait',
  next_due_at: '2026-11-22 09:00:00',
  trigger: 'keyword',
  test: false,
  started_at: '2026-11-21 09:00:00',
  ended_at: '',
  history: [
    { step_id: 's_send', type: 'send', entered_at: '2026-11-21 09:00:01', done_at: '2026-11-21 09:00:01', outcome: 'sent' },
    { step_id: 's_wait', type: 'wait', entered_at: '2026-11-21 09:00:01', done_at: '', outcome: null },
  ],
};

const EXITED_RUN: FlowRun = {
  ...WELCOME_RUN,
  uuid: '7a7a7a7a-0000-4000-8000-000000000002',
  flow: { uuid: '8b8b8b8b-0000-4000-8000-000000000002', name: 'Birthday' },
  state: 'exited',
  exit_reason: 'opted_out',
  step_id: null,
  next_due_at: '',
  trigger: 'anniversary',
  started_at: '2026-10-01 10:00:00',
  ended_at: '2026-10-01 10:05:00',
  history: [{ step_id: 's_b', type: 'send', entered_at: '2026-10-01 10:00:00', done_at: '2026-10-01 10:05:00', outcome: 'opted_out' }],
};

function serve(runs: FlowRun[]) {
  signIn();
  return mockApi((_request, url) => {
    if (url.pathname === `/api/2.0/contacts/${ADA_NUMBER}/flow-runs`) return json(page(runs));
    if (url.pathname === `/api/2.0/contacts/${ADA_NUMBER}/consent`) return json({ data: [] });
    if (url.pathname === `/api/2.0/contacts/${ADA_NUMBER}`) return json({ data: contactDetail() });
    return apiError(404, 'Unexpected request');
  });
}

const renderPage = () =>
  render(
    <Routes>
      <Route path="/contacts/:phoneNumber" element={<ContactPage />} />
    </Routes>,
    { route: `/contacts/${ADA_NUMBER}`, role: 'viewer' },
  );

describe('a contact’s flows', { timeout: 20_000 }, () => {
  it('lists the number’s runs, each opening onto its history', async () => {
    serve([WELCOME_RUN, EXITED_RUN]);
    const { user } = renderPage();
    const section = await screen.findByRole('region', { name: 'Flows' });
    const welcome = await within(section).findByRole('button', { name: /Welcome series\s*Active/ });
    expect(within(section).getByRole('button', { name: /Birthday\s*Exited.*Exited: Opted out/ })).toBeInTheDocument();

    await user.click(welcome);
    const history = await within(section).findByRole('table', { name: `History of the run for +${ADA_NUMBER}` });
    const rows = within(history).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Send a template');
    expect(rows[1]).toHaveTextContent('Message queued');
    expect(rows[2]).toHaveTextContent('Wait');
    expect(rows[2]).toHaveTextContent('In progress');
    expect(within(section).getByRole('link', { name: 'The flow' })).toHaveAttribute('href', `/flows/${WELCOME_RUN.flow.uuid}`);
  });

  it('says so when no flow ran for the number', async () => {
    serve([]);
    renderPage();
    const section = await screen.findByRole('region', { name: 'Flows' });
    expect(await within(section).findByText('No flow has run for this number.')).toBeInTheDocument();
  });
});
