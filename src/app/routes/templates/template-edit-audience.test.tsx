import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Campaign, ContactGroup, Template } from '../../api/gen/types.gen';
import { campaign as campaignFixture } from '../../features/campaigns/campaign-fixtures';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import TemplateEditPage from './template-edit.page';

const UUID = '9c7e2f10-0000-4000-8000-000000000001';
const CUSTOMERS = '1b0c0000-0000-4000-8000-000000000001';
const VIP = '1b0c0000-0000-4000-8000-000000000002';

const TEMPLATE: Template = {
  uuid: UUID,
  name: 'Spring sale',
  body: 'Hi {{first_name}}, our sale ends Sunday',
  links: [],
  is_locked: false,
  sender: 'HeraldShop',
  created_at: '2026-11-02 09:30:00',
  updated_at: '2026-11-02 09:30:00',
};

function group(uuid: string, name: string): ContactGroup {
  return {
    uuid,
    name,
    description: null,
    deletable: true,
    number_of_contacts: 1204,
    status: 'Ready',
    headers: ['first_name'],
    created_at: '2026-11-01 09:00:00',
    updated_at: '2026-11-01 09:00:00',
    links: [],
  };
}

/** A campaign of this template, scheduled, with no group unless given. */
function campaign(overrides: Partial<Campaign>): Campaign {
  return campaignFixture({
    template_uuid: UUID,
    scheduled_send_date: '2030-07-01 09:00:00',
    expiry_date: '2030-07-02 09:00:00',
    included_contact_groups: [],
    ...overrides,
  });
}

const AUDIENCE = { recipients: 1204, segments: { min: 1, typical: 1, max: 3 } };

/** The service, with the template's pending campaigns; returns the bodies of the encoding requests. */
function serve(pending: Campaign[]) {
  const encodings: unknown[] = [];
  const fetchMock = mockApi(async (request, url) => {
    if (url.pathname === `/api/2.0/templates/${UUID}`) return json({ data: TEMPLATE });
    if (url.pathname === '/api/2.0/templates/encoding' && request.method === 'POST') {
      encodings.push(await request.json());
      return json({ data: { encoding: 'GSM_7BIT', length: 38, segments: 1, per_segment: 160, warnings: [], audience: AUDIENCE } });
    }
    if (url.pathname === '/api/2.0/contact-groups') return json(page([group(CUSTOMERS, 'Customers'), group(VIP, 'VIP')]));
    if (url.pathname === '/api/2.0/campaigns') {
      const filtered = url.searchParams.get('status') === '0' && url.searchParams.get('template_uuid') === UUID;
      return json(page(filtered ? pending : [], { per_page: 100 }));
    }
    return json(page([]));
  });
  return { encodings, fetchMock };
}

function renderPage() {
  return render(
    <Routes>
      <Route path="/templates/:uuid" element={<TemplateEditPage />} />
    </Routes>,
    { route: `/templates/${UUID}`, role: 'editor' },
  );
}

describe('the template editor, against real audiences', () => {
  it('without groups keeps the count with empty fields and says so; a picked group is measured on the service', async () => {
    signIn();
    const { encodings } = serve([]);
    const { user } = renderPage();

    await screen.findByRole('textbox', { name: /message/i });
    expect(screen.getByTestId('segment-counter')).toHaveTextContent('1 segment · 26/160');
    expect(screen.getByText(/assumes empty fields/)).toBeInTheDocument();
    expect(encodings).toEqual([]);

    await user.click(screen.getByRole('combobox', { name: /Measure against a group/ }));
    await user.click(await screen.findByRole('option', { name: 'Customers' }));
    await user.keyboard('{Escape}');

    expect(await screen.findByText('For 1,204 recipients of Customers: 1–3 SMS parts, typically 1', {}, { timeout: 3000 })).toBeInTheDocument();
    expect(encodings).toEqual([{ body: TEMPLATE.body, template_uuid: UUID, contact_groups: [CUSTOMERS] }]);
    expect(screen.queryByText(/assumes empty fields/)).not.toBeInTheDocument();
    // The counter in the browser is unchanged; the range is beside it.
    expect(screen.getByTestId('segment-counter')).toHaveTextContent('1 segment · 26/160');

    // Typing asks again once, when the typing stops, not per keystroke.
    await user.type(screen.getByRole('textbox', { name: /message/i }), '!!!');
    await waitFor(() => expect(encodings).toHaveLength(2), { timeout: 3000 });
    expect(encodings[1]).toEqual({ body: `${TEMPLATE.body}!!!`, template_uuid: UUID, contact_groups: [CUSTOMERS] });

    // No scheduled campaign: nothing to warn about above the save button.
    expect(screen.queryByText(/Saving changes the message of/)).not.toBeInTheDocument();
  });

  it('preselects the groups of the latest scheduled campaign and lists the scheduled campaigns a save changes', async () => {
    signIn();
    const latest = campaign({ uuid: '5a000000-0000-4000-8000-000000000002', name: 'Summer sale', included_contact_groups: [CUSTOMERS, VIP] });
    const draft = campaign({ uuid: '5a000000-0000-4000-8000-000000000003', name: 'Autumn teaser', is_draft: true, scheduled_send_date: '2030-09-01 10:30:00' });
    const { encodings } = serve([latest, draft]);
    const { user } = renderPage();

    const notice = await screen.findByRole('status', { name: 'Saving changes the message of 2 scheduled campaigns:' });
    const items = within(within(notice).getByRole('list')).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByRole('link', { name: 'Summer sale' })).toHaveAttribute('href', '/campaigns/5a000000-0000-4000-8000-000000000002');
    expect(items[0]).toHaveTextContent('sends 1 Jul 2030, 09:00');
    expect(within(items[1]!).getByRole('link', { name: 'Autumn teaser' })).toHaveAttribute('href', '/campaigns/5a000000-0000-4000-8000-000000000003');
    expect(items[1]).toHaveTextContent('Draft');
    // Dates are written in the browser's language (lib/format.ts): the tests' en-GB shortens September to "Sept".
    expect(items[1]).toHaveTextContent('not scheduled yet, set for 1 Sept 2030, 10:30');
    // The notice sits above the save button.
    const save = screen.getByRole('button', { name: 'Save changes' });
    expect(notice.compareDocumentPosition(save) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    expect(await screen.findByText('For 1,204 recipients of Customers and VIP: 1–3 SMS parts, typically 1', {}, { timeout: 3000 })).toBeInTheDocument();
    await waitFor(() => expect(encodings).toEqual([{ body: TEMPLATE.body, template_uuid: UUID, contact_groups: [CUSTOMERS, VIP].sort() }]));

    // Cleared, the groups stay cleared (the campaign's are not chosen again) and the count is the one with empty fields.
    await user.click(screen.getByRole('combobox', { name: /Measure against a group/ }));
    await user.keyboard('{Backspace}{Backspace}{Escape}');
    expect(await screen.findByText(/assumes empty fields/)).toBeInTheDocument();
    expect(screen.queryByText(/recipients of/)).not.toBeInTheDocument();
  });
});
