/**
 * Pickers that find anything (issue 20, point 6): the campaign form's pickers search the service as
 * the user types (`search`, debounced), so a team with 150 templates can pick the oldest; and a saved
 * campaign whose template and groups are older than the pickers' first page still shows them by name.
 * The same holds for the segment pickers (issue 35).
 *
 * Seen red: with the template picker's query left at the first page whatever was typed (Template 150
 * was never offered), and with the saved template and groups not read by uuid (the Template field was
 * empty and no group was named); and with the pages not handing the form its segments (no segment
 * picker at all, which is how they stood before issue 35's wiring).
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { campaign, CAMPAIGN_UUID, campaignReview, ZONE } from '../../features/campaigns/campaign-fixtures';
import { currentUser } from '../../testing/current-user';
import { json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor } from '../../testing/render';
import CampaignNewPage from './campaign-new.page';
import CampaignPage from './campaign.page';
import { summaryOf } from '../../testing/campaign-summary';

const uuidOf = (kind: 'a' | 'b' | 'c', index: number) => `5d1c6a70-0000-4000-8${kind}00-${String(index).padStart(12, '0')}`;

/** Newest first, as the service lists them: Template 1 is the newest, Template 150 the oldest. */
const TEMPLATES = Array.from({ length: 150 }, (_, i) => ({
  uuid: uuidOf('a', i + 1),
  name: `Template ${i + 1}`,
  body: 'Hello',
  sender: 'HeraldShop',
  links: [],
  is_locked: false,
  created_at: '',
  updated_at: '',
}));
const GROUPS = Array.from({ length: 150 }, (_, i) => ({
  uuid: uuidOf('b', i + 1),
  name: `Group ${i + 1}`,
  description: null,
  deletable: true,
  number_of_contacts: 3,
  status: 'Ready',
  headers: [],
  created_at: '',
  updated_at: '',
}));

const SEGMENTS = Array.from({ length: 150 }, (_, i) => ({
  uuid: uuidOf('c', i + 1),
  name: `Segment ${i + 1}`,
  description: null,
  match: 'all',
  conditions: [{ type: 'country', op: 'in', values: ['GB'] }],
  created_at: '',
  updated_at: '',
}));

/** A list as the service answers it: `search` (name contains, ignoring case), then the page asked for. */
function listOf<T extends { name: string }>(items: T[], url: URL) {
  const search = url.searchParams.get('search')?.toLowerCase();
  const found = search ? items.filter((item) => item.name.toLowerCase().includes(search)) : items;
  const perPage = Number(url.searchParams.get('per_page') ?? 15);
  const current = Number(url.searchParams.get('page') ?? 1);
  return json(page(found.slice((current - 1) * perPage, current * perPage), { current_page: current, per_page: perPage, total: found.length }));
}

function serve() {
  signIn();
  return mockApi((_request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    if (path === '/templates') return listOf(TEMPLATES, url);
    if (path === '/contact-groups') return listOf(GROUPS, url);
    if (path === '/segments') return listOf(SEGMENTS, url);
    const segment = SEGMENTS.find((candidate) => path === `/segments/${candidate.uuid}`);
    if (segment) return json({ data: segment });
    const template = TEMPLATES.find((candidate) => path === `/templates/${candidate.uuid}`);
    if (template) return json({ data: template });
    if (path.startsWith('/templates/') && path.endsWith('/preview')) return json({ data: { ...TEMPLATES[149], phone_number: '', warnings: [] } });
    const group = GROUPS.find((candidate) => path === `/contact-groups/${candidate.uuid}`);
    if (group) return json({ data: group });
    if (path === `/campaigns/${CAMPAIGN_UUID}`)
      return json({
        data: campaign({
          template_uuid: TEMPLATES[149]!.uuid,
          included_contact_groups: [GROUPS[139]!.uuid, GROUPS[2]!.uuid],
          excluded_contact_groups: [GROUPS[120]!.uuid],
          included_segments: [SEGMENTS[129]!.uuid],
          excluded_segments: [SEGMENTS[1]!.uuid],
          scheduled_send_date: '2030-03-02 09:00:00',
          expiry_date: '2030-03-03 09:00:00',
        }),
      });
    if (path === '/campaigns/preview' || path === `/campaigns/${CAMPAIGN_UUID}/review`) return json({ data: campaignReview() });
    if (path === `/campaigns/${CAMPAIGN_UUID}/summary`)
      return json({
        data: summaryOf({ recipients: 6 }),
      });
    if (path === '/users/me') return json({ data: currentUser('editor', { app_timezone: ZONE }) });
    return json(page([]));
  });
}

const searchesOf = (fetchMock: ReturnType<typeof serve>, path: string) =>
  fetchMock.mock.calls
    .map(([request]) => new URL(request.url))
    .filter((url) => url.pathname === `/api/2.0${path}`)
    .map((url) => url.searchParams.get('search'));

describe('the campaign form’s pickers', { timeout: 30_000 }, () => {
  it('search the service as the user types, so the 150th template can be picked', async () => {
    const fetchMock = serve();
    const { user } = render(
      <Routes>
        <Route path="/campaigns/new" element={<CampaignNewPage />} />
      </Routes>,
      { route: '/campaigns/new', role: 'editor' },
    );

    const picker = await screen.findByRole('combobox', { name: /Template/ });
    await user.click(picker);
    // The first page holds the newest 100.
    expect(await screen.findByRole('option', { name: 'Template 100' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Template 150' })).not.toBeInTheDocument();

    await user.type(picker, 'late 150');
    // Found by the service once the typing has settled (250 ms).
    await user.click(await screen.findByRole('option', { name: 'Template 150' }, { timeout: 15_000 }));
    expect(picker).toHaveValue('Template 150');
    // Asked once the typing settled, not on every keystroke.
    const searches = searchesOf(fetchMock, '/templates');
    expect(searches).toContain('late 150');
    expect(searches).not.toContain('l');
  });

  it('show the saved template and groups by name when they are older than the first page', async () => {
    serve();
    render(
      <Routes>
        <Route path="/campaigns/:uuid" element={<CampaignPage />} />
      </Routes>,
      { route: `/campaigns/${CAMPAIGN_UUID}`, role: 'editor' },
    );

    const picker = await screen.findByRole('combobox', { name: /Template/ });
    await waitFor(() => expect(picker).toHaveValue('Template 150'));
    const fieldOf = (name: RegExp) => screen.getByRole('combobox', { name }).closest('.mantine-InputWrapper-root') as HTMLElement;
    await waitFor(() => expect(fieldOf(/Send to these groups/)).toHaveTextContent('Group 140'));
    expect(fieldOf(/Send to these groups/)).toHaveTextContent('Group 3');
    expect(fieldOf(/Leave out these groups/)).toHaveTextContent('Group 121');
    expect(fieldOf(/Send to these groups/)).not.toHaveTextContent('Group 121');
    // Issue 35: the saved segments too, the older one read by uuid.
    await waitFor(() => expect(fieldOf(/Send to these segments/)).toHaveTextContent('Segment 130'));
    expect(fieldOf(/Leave out these segments/)).toHaveTextContent('Segment 2');
  });

  it('offer the team’s segments, found on the service as the user types (issue 35)', async () => {
    const fetchMock = serve();
    const { user } = render(
      <Routes>
        <Route path="/campaigns/new" element={<CampaignNewPage />} />
      </Routes>,
      { route: '/campaigns/new', role: 'editor' },
    );

    const picker = await screen.findByRole('combobox', { name: /Send to these segments/ });
    await user.click(picker);
    expect(await screen.findByRole('option', { name: 'Segment 100' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Segment 150' })).not.toBeInTheDocument();
    await user.type(picker, 'ment 150');
    await user.click(await screen.findByRole('option', { name: 'Segment 150' }, { timeout: 15_000 }));
    const fieldOf = (name: RegExp) => screen.getByRole('combobox', { name }).closest('.mantine-InputWrapper-root') as HTMLElement;
    expect(fieldOf(/Send to these segments/)).toHaveTextContent('Segment 150');
    expect(searchesOf(fetchMock, '/segments')).toContain('ment 150');
  });
});
