/**
 * A contact's consent on its page (issue 36, point 3): the records (how, when, the text shown, the
 * evidence), the double opt-in request still waiting for YES, and a sentence when there is no proof.
 *
 * Seen red: with the request's state left out of the Consent section (`before`), "Waiting for YES" was
 * nowhere on the page.
 */
import { describe, expect, it } from 'vitest';
import { Route, Routes } from 'react-router';
import type { ConsentRecord, ContactDetail } from '../../api/gen/types.gen';
import { ADA_NUMBER, contactDetail } from '../../features/contacts-directory/contacts-directory.fixtures';
import { apiError, json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import ContactPage from './contact.page';

const KEYWORD_CONSENT: ConsentRecord = {
  uuid: '6c6c6c6c-0000-4000-8000-000000000001',
  source: 'keyword',
  at: '2026-11-02 09:00:00',
  text_shown: 'Welcome to VIP!',
  evidence: { inbound_message_uuid: '9b9b9b9b-0000-4000-8000-000000000001' },
};

function serve(detail: ContactDetail, records: ConsentRecord[]) {
  signIn();
  return mockApi((_request, url) => {
    if (url.pathname === `/api/2.0/contacts/${ADA_NUMBER}/consent`) return json({ data: records });
    if (url.pathname === `/api/2.0/contacts/${ADA_NUMBER}`) return json({ data: detail });
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

describe('a contact’s consent', { timeout: 20_000 }, () => {
  it('lists each consent with how, when, the text shown and its evidence', async () => {
    serve(contactDetail(), [KEYWORD_CONSENT]);
    renderPage();
    const table = await screen.findByRole('table', { name: 'Consent' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Texted a keyword');
    expect(row).toHaveTextContent('Welcome to VIP!');
    expect(row).toHaveTextContent('Message: 9b9b9b9b-0000-4000-8000-000000000001');
  });

  it('shows a sign-up waiting for YES, and says when there is no proof', async () => {
    serve(
      contactDetail({
        opt_in_request: { state: 'pending', source: 'keyword', requested_at: '2026-11-21 09:00:00', expires_at: '2026-11-23 09:00:00', decided_at: '' },
      }),
      [],
    );
    renderPage();
    const section = await screen.findByRole('region', { name: 'Consent' });
    expect(await within(section).findByText('Waiting for YES')).toBeInTheDocument();
    expect(within(section).getByText(/Herald holds no proof that this number agreed/)).toBeInTheDocument();
  });
});
