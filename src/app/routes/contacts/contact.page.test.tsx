/**
 * A contact's page (issue 20, point 4, in the dashboard): what the team holds about one number
 * (groups linked, fields per group, messages with their campaign, status and time, clicks, inbound
 * messages, the opt-out state with its source), the JSON download and the erasure, both for admins
 * only. Erasure asks for the number to be typed, says the service's reason when refused (409 while
 * something is still to be sent to it) and, once done, goes back to the Contacts list and says so.
 *
 * Seen red: with `can('admin')` changed to `can('edit')` in contact.page.tsx (the editor saw both
 * actions), with sameDigits always true (the erase button worked before the number was typed), with
 * the dialog's Alert removed (the 409's sentence was nowhere), with contactExportFileName
 * answering "contact.json" (the file no longer said whose data it held), and with the opted-out line
 * of the erase dialog removed (nothing said the number stays suppressed).
 */
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContactDetail } from '../../api/gen/types.gen';
import { ADA_NUMBER, contactDetail, NEWSLETTER_GROUP, SPRING_SALE, VIP_GROUP } from '../../features/contacts-directory/contacts-directory.fixtures';
import type { Role } from '../../lib/roles';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import ContactPage from './contact.page';

const SENDING =
  'Something is still to be sent to this number (a queued campaign message or keyword reply). Stop the campaign, or erase the number when it has finished.';

interface Serve {
  detail?: () => Response;
  erase?: () => Response;
}

function serve({ detail = () => json({ data: contactDetail() }), erase = () => json({ data: erasure() }) }: Serve = {}) {
  signIn();
  return mockApi((request, url) => {
    if (url.pathname === `/api/2.0/contacts/${ADA_NUMBER}` && request.method === 'DELETE') return erase();
    if (url.pathname === `/api/2.0/contacts/${ADA_NUMBER}/export`) {
      return json({ data: { phone_number: ADA_NUMBER, exported_at: '2026-11-03 08:00:00' } }, 200, {
        'Content-Disposition': `attachment; filename="contact-${ADA_NUMBER}.json"`,
      });
    }
    if (url.pathname === `/api/2.0/contacts/${ADA_NUMBER}`) return detail();
    if (url.pathname === '/api/2.0/contacts') return json(page([]));
    return apiError(404, 'Unexpected request');
  });
}

function erasure() {
  return {
    erased_as: 'erased-0123456789abcdef',
    groups_left: 2,
    messages_anonymised: 2,
    clicks_anonymised: 2,
    inbound_anonymised: 1,
    replies_anonymised: 1,
    opt_out_events_anonymised: 1,
    kept_as_opt_out: true,
  };
}

function ContactsListProbe() {
  return <p>Contacts list{useLocation().search}</p>;
}

function renderAt(role: Role, phoneNumber = ADA_NUMBER) {
  return render(
    <Routes>
      <Route path="/contacts/:phoneNumber" element={<ContactPage />} />
      <Route path="/contacts" element={<ContactsListProbe />} />
    </Routes>,
    { route: `/contacts/${encodeURIComponent(phoneNumber)}`, role },
  );
}

const section = (name: string) => screen.getByRole('region', { name });

describe('a contact’s page', { timeout: 20_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the groups with their fields, the messages, clicks, inbound messages and the opt-out with its source', async () => {
    serve();
    renderAt('viewer');

    expect(await screen.findByRole('region', { name: 'Contact summary' })).toBeInTheDocument();

    const summary = screen.getByRole('region', { name: 'Contact summary' });
    const optOut = within(summary).getByRole('group', { name: 'Opt-out' });
    expect(optOut).toHaveTextContent('Opted out');
    expect(optOut).toHaveTextContent('Texted STOP (or another opt-out word), 2 Nov 2026, 18:04, after Spring sale.');
    expect(within(optOut).getByRole('link', { name: 'Spring sale' })).toHaveAttribute('href', `/campaigns/${SPRING_SALE.uuid}`);
    expect(within(summary).getByRole('group', { name: 'Groups' })).toHaveTextContent('3');
    expect(within(summary).getByRole('group', { name: 'Messages received' })).toHaveTextContent('2');

    const groups = section('Groups');
    expect(within(groups).getByRole('link', { name: 'VIP customers' })).toHaveAttribute('href', `/contact-groups/${VIP_GROUP.uuid}`);
    const vipFields = within(groups).getByRole('table', { name: 'Fields in VIP customers' });
    expect(within(vipFields).getByRole('row', { name: 'email ada@example.com' })).toBeInTheDocument();
    const newsletterFields = within(groups).getByRole('table', { name: 'Fields in Newsletter' });
    expect(within(newsletterFields).getByRole('row', { name: 'first_name Ada' })).toBeInTheDocument();
    expect(within(groups).getByRole('link', { name: 'Newsletter' })).toHaveAttribute('href', `/contact-groups/${NEWSLETTER_GROUP.uuid}`);
    expect(within(groups).getByRole('article', { name: 'default_optouts' })).toHaveTextContent('No custom fields.');

    const messages = within(section('Messages received')).getByRole('table', { name: 'Messages received' });
    const [delivered, failed] = within(messages).getAllByRole('row').slice(1);
    expect(within(delivered!).getByRole('link', { name: 'Spring sale' })).toHaveAttribute('href', `/campaigns/${SPRING_SALE.uuid}`);
    expect(delivered).toHaveTextContent('Delivered');
    expect(within(delivered!).getByRole('cell', { name: '2 Nov 2026, 09:30' })).toBeInTheDocument();
    expect(within(delivered!).getByRole('cell', { name: '2 Nov 2026, 09:31' })).toBeInTheDocument();
    expect(failed).toHaveTextContent('FailedAbsent subscriber');
    expect(within(failed!).getByRole('cell', { name: '20 Oct 2026, 12:00' })).toBeInTheDocument();

    const clicks = within(section('Clicks')).getByRole('table', { name: 'Clicks' });
    expect(within(clicks).getAllByRole('row')).toHaveLength(3);
    expect(within(clicks).getAllByRole('row')[2]).toHaveTextContent('Link preview bot');
    expect(within(clicks).getAllByRole('row')[1]).not.toHaveTextContent('Link preview bot');

    const inbound = within(section('Inbound messages')).getByRole('table', { name: 'Inbound messages' });
    expect(within(inbound).getAllByRole('row')[1]).toHaveTextContent('STOP please');
    expect(within(inbound).getAllByRole('row')[1]).toHaveTextContent('Opt-out word');

    const history = within(section('Opt-out history')).getByRole('table', { name: 'Opt-out history' });
    expect(within(history).getAllByRole('row')[1]).toHaveTextContent('Opted out');
  });

  it('says how a number came back in, and when only the newest of many records are shown', async () => {
    const detail: ContactDetail = contactDetail({
      opted_out: false,
      groups: [{ ...VIP_GROUP, custom_fields: {}, added_at: '2026-10-02 10:15:00' }],
      messages: { ...contactDetail().messages, total: 250 },
      opt_out_events: {
        total: 2,
        items: [
          {
            phone_number: ADA_NUMBER,
            kind: 'opt_in',
            source: 'dashboard',
            campaign: null,
            user: { uuid: 'u', name: 'Grace Hopper' },
            reason: 'Asked by phone',
            created_at: '2026-11-05 10:00:00',
          },
          ...contactDetail().opt_out_events.items,
        ],
      },
    });
    serve({ detail: () => json({ data: detail }) });
    renderAt('viewer');

    const optOut = await screen.findByRole('group', { name: 'Opt-out' });
    expect(optOut).toHaveTextContent('Receives campaigns');
    expect(optOut).toHaveTextContent('Taken out of default_optouts in the dashboard by Grace Hopper, 5 Nov 2026, 10:00. Reason: Asked by phone');
    expect(section('Messages received')).toHaveTextContent('The newest 2 of 250; the data download holds them all.');
  });

  it('says when the team holds nothing about the number', async () => {
    serve({ detail: () => apiError(404, 'It was not found.') });
    renderAt('viewer', '447700900999');
    expect(await screen.findByText('Nothing is held about this number')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to contacts' })).toHaveAttribute('href', '/contacts');
  });

  it('offers the download and the erasure to admins only, and tells the others why', async () => {
    serve();
    const editor = renderAt('editor');
    expect(await screen.findByRole('region', { name: 'Contact summary' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download data (JSON)' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Erase this contact' })).not.toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Only admins of Acme can download a contact’s data or erase it; you have the editor role.');
    editor.unmount();

    serve();
    const viewer = renderAt('viewer');
    expect(await screen.findByRole('region', { name: 'Contact summary' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Erase this contact' })).not.toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('you have the viewer role');
    viewer.unmount();

    serve();
    renderAt('admin');
    expect(await screen.findByRole('button', { name: 'Download data (JSON)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Erase this contact' })).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });

  it('downloads everything as a JSON file named after the number', async () => {
    const fetchMock = serve();
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:http://localhost/contact';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const { user } = renderAt('admin');

    await user.click(await screen.findByRole('button', { name: 'Download data (JSON)' }));

    await waitFor(() => expect(saved).toEqual([{ href: 'blob:http://localhost/contact', download: `contact-${ADA_NUMBER}.json` }]));
    expect(fetchMock.mock.calls.some(([request]) => new URL(request.url).pathname === `/api/2.0/contacts/${ADA_NUMBER}/export`)).toBe(true);
    expect(JSON.parse(await blobs[0]!.text())).toEqual({ data: { phone_number: ADA_NUMBER, exported_at: '2026-11-03 08:00:00' } });
  });

  it('erases only once the number is typed, then goes back to the list and says so', async () => {
    const fetchMock = serve();
    const { user } = renderAt('admin');

    await user.click(await screen.findByRole('button', { name: 'Erase this contact' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase this contact' });
    expect(dialog).toHaveTextContent('Erase +447700900123 from Acme? This cannot be undone.');
    expect(dialog).toHaveTextContent(
      'It opted out, so it stays suppressed: the number stays in default_optouts, without its fields, and is never texted again, even if it is imported again.',
    );
    const erase = within(dialog).getByRole('button', { name: 'Erase contact' });
    expect(erase).toBeDisabled();
    const confirmation = within(dialog).getByRole('textbox', { name: 'Type +447700900123 to confirm' });
    await user.type(confirmation, '+44 7700 900124');
    expect(erase).toBeDisabled();
    await user.clear(confirmation);
    await user.type(confirmation, '+44 7700 900123');
    expect(erase).toBeEnabled();
    expect(fetchMock.mock.calls.some(([request]) => request.method === 'DELETE')).toBe(false);

    await user.click(erase);

    expect(await screen.findByText('Contacts list')).toBeInTheDocument();
    expect(screen.getByText('+447700900123 was erased from Acme.')).toBeInTheDocument();
    const deletions = fetchMock.mock.calls.filter(([request]) => request.method === 'DELETE').map(([request]) => new URL(request.url).pathname);
    expect(deletions).toEqual([`/api/2.0/contacts/${ADA_NUMBER}`]);
  });

  it('shows the service’s reason when it refuses the erasure, and stays on the page', async () => {
    serve({ erase: () => apiError(409, SENDING) });
    const { user } = renderAt('admin');

    await user.click(await screen.findByRole('button', { name: 'Erase this contact' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase this contact' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Type +447700900123 to confirm' }), '447700900123');
    await user.click(within(dialog).getByRole('button', { name: 'Erase contact' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The contact could not be erased');
    expect(alert).toHaveTextContent(SENDING);
    expect(screen.queryByText('Contacts list')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '+447700900123', level: 1 })).toBeInTheDocument();
  });
});
