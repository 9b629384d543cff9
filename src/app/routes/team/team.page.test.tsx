/**
 * The Team page (issue 18, point 3): an admin changes roles and removes members (after a
 * confirmation), and the service's 409 for the last admin is shown as it says it; invitations are
 * checked before they are sent and said to be on their way; the approval rule's three choices send
 * null, 0 or N; any other role reads the same page with nothing to change, and is told why.
 * Issue 19: the settings cards (sending safety, cost estimate, quiet hours, automatic replies) each
 * send their own fields, check what they can first and put the service's 422 on the field it names
 * (dotted names such as `quiet_hours.end` included); the other roles read the values.
 *
 * Seen red: with the settings form sending `Number('')` for "No approval needed" (0 instead of
 * null), with the role Select's onChange left out (no PUT was made), and with `isAdmin` asking for
 * `edit` (the editor was offered the invite form and the role Selects).
 */
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Invitation, Member, TeamSettings } from '../../api/gen/types.gen';
import type { Role } from '../../lib/roles';
import { currentUser } from '../../testing/current-user';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import TeamPage from './team.page';
import { NEW_TEAM_SETTINGS } from '../../testing/team-settings';

// Each test renders several forms and types into them: on a busy machine that takes seconds.
const SLOW = { timeout: 20_000 };

const ME = currentUser('admin');
const LAST_ADMIN = 'A team needs at least one admin: make another member an admin first.';

function member(overrides: Partial<Member>): Member {
  return {
    uuid: ME.uuid,
    email: ME.email,
    name: ME.name,
    role: 'admin',
    joined_at: '2026-11-01 08:00:00',
    last_seen_at: '2026-11-03 17:05:00',
    ...overrides,
  };
}

const ADA = member({});
const BOB = member({ uuid: '44444444-4444-4444-8444-444444444444', email: 'bob@herald.test', name: 'Bob Builder', role: 'editor', last_seen_at: '' });
const CLEO = member({ uuid: '55555555-5555-4555-8555-555555555555', email: 'cleo@herald.test', name: 'Cleo Clark', role: 'viewer' });

const PENDING: Invitation = {
  uuid: '66666666-6666-4666-8666-666666666666',
  email: 'dora@example.com',
  role: 'viewer',
  invited_by: 'Ada Lovelace',
  created_at: '2026-11-04 10:00:00',
  expires_at: '2026-11-11 10:00:00',
};

const SETTINGS = NEW_TEAM_SETTINGS;

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/** The service as the page sees it; `answer` overrides one request by "METHOD /path". */
function serve({
  threshold = null,
  answer = {},
  settings: overrides = {},
}: { threshold?: number | null; answer?: Record<string, () => Response>; settings?: Partial<TeamSettings> } = {}) {
  signIn();
  const sent: Sent[] = [];
  let members = [ADA, BOB, CLEO];
  let invitations = [PENDING];
  let settings: TeamSettings = { ...SETTINGS, approval_threshold: threshold, ...overrides };
  mockApi(async (request, url) => {
    const path = url.pathname.replace('/api/2.0', '');
    const body: unknown = request.method === 'GET' || request.method === 'DELETE' ? undefined : await request.json();
    sent.push({ method: request.method, path, body });
    const override = answer[`${request.method} ${path}`];
    if (override) return override();
    const [, , collection, uuid] = path.split('/');
    if (request.method === 'GET' && path === '/team/members') return json(page(members));
    if (request.method === 'GET' && path === '/team/invitations') return json(page(invitations));
    if (request.method === 'GET' && path === '/team/settings') return json({ data: settings });
    if (request.method === 'PUT' && path === '/team/settings') {
      settings = { ...settings, ...(body as Partial<TeamSettings>) };
      return json({ data: settings });
    }
    if (collection === 'members' && request.method === 'PUT') {
      members = members.map((each) => (each.uuid === uuid ? { ...each, role: (body as { role: Role }).role } : each));
      return json({ data: members.find((each) => each.uuid === uuid) });
    }
    if (collection === 'members' && request.method === 'DELETE') {
      members = members.filter((each) => each.uuid !== uuid);
      return new Response(null, { status: 204 });
    }
    if (collection === 'invitations' && request.method === 'POST') {
      const created = { ...PENDING, uuid: '77777777-7777-4777-8777-777777777777', ...(body as object) };
      invitations = [created, ...invitations];
      return json({ data: created }, 201);
    }
    if (collection === 'invitations' && request.method === 'DELETE') {
      invitations = invitations.filter((each) => each.uuid !== uuid);
      return new Response(null, { status: 204 });
    }
    return apiError(404, `Not mocked: ${request.method} ${path}`);
  });
  return { sent, changes: () => sent.filter((request) => request.method !== 'GET') };
}

function renderPage(role: Role = 'admin') {
  return render(
    <Routes>
      <Route path="/team" element={<TeamPage />} />
    </Routes>,
    { route: '/team', role },
  );
}

async function membersTable() {
  return screen.findByRole('table', { name: 'Members' });
}

describe('the Team page, for an admin', SLOW, () => {
  it('lists the members with their role, when they joined and when they were last seen', async () => {
    serve();
    renderPage();

    const table = await membersTable();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'E-mail', 'Role', 'Joined', 'Last seen', 'Actions']);
    expect(rows[0]).toHaveTextContent('Ada LovelaceYou');
    expect(within(rows[1]!).getByRole('combobox', { name: 'Role of Bob Builder' })).toHaveValue('Editor');
    expect(rows[1]).toHaveTextContent('1 Nov 2026, 08:00');
    expect(rows[1]).toHaveTextContent('Never');
    // An admin removes others, not themselves.
    expect(within(rows[0]!).queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    expect(within(rows[2]!).getByRole('button', { name: 'Remove Cleo Clark' })).toBeInTheDocument();
  });

  it('changes a member’s role with the Select', async () => {
    const { changes } = serve();
    const { user } = renderPage();

    await user.click(within(await membersTable()).getByRole('combobox', { name: 'Role of Bob Builder' }));
    await user.click(await screen.findByRole('option', { name: 'Viewer' }));

    expect(await screen.findByText('Bob Builder is now a viewer.')).toBeInTheDocument();
    expect(changes()).toEqual([{ method: 'PUT', path: `/team/members/${BOB.uuid}`, body: { role: 'viewer' } }]);
    expect(screen.getByRole('combobox', { name: 'Role of Bob Builder' })).toHaveValue('Viewer');
  });

  it('shows the service’s own words when the change would leave the team without an admin, and keeps the role', async () => {
    const { changes } = serve({ answer: { [`PUT /team/members/${ADA.uuid}`]: () => apiError(409, LAST_ADMIN) } });
    const { user } = renderPage();

    await user.click(within(await membersTable()).getByRole('combobox', { name: 'Role of Ada Lovelace' }));
    await user.click(await screen.findByRole('option', { name: 'Editor' }));
    // Giving up one's own admin role is asked first.
    const dialog = await screen.findByRole('dialog', { name: 'Give up the admin role' });
    expect(changes()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Become an editor' }));

    const toast = (await screen.findByText(LAST_ADMIN)).closest('[role="alert"]');
    expect(toast).toHaveTextContent('The role of Ada Lovelace could not be changed');
    expect(changes()).toEqual([{ method: 'PUT', path: `/team/members/${ADA.uuid}`, body: { role: 'editor' } }]);
    expect(screen.getByRole('combobox', { name: 'Role of Ada Lovelace' })).toHaveValue('Admin');
  });

  it('removes a member only once confirmed', async () => {
    const { changes } = serve();
    const { user } = renderPage();

    await user.click(within(await membersTable()).getByRole('button', { name: 'Remove Cleo Clark' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove member' });
    expect(dialog).toHaveTextContent('Remove Cleo Clark (cleo@herald.test) from Acme?');
    expect(changes()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));

    expect(await screen.findByText('Cleo Clark was removed from Acme.')).toBeInTheDocument();
    expect(changes()).toEqual([{ method: 'DELETE', path: `/team/members/${CLEO.uuid}`, body: undefined }]);
    await waitFor(() => expect(screen.queryByRole('cell', { name: 'Cleo Clark' })).not.toBeInTheDocument());
  });

  it('shows the service’s 409 when a removal would leave no admin', async () => {
    serve({ answer: { [`DELETE /team/members/${BOB.uuid}`]: () => apiError(409, LAST_ADMIN) } });
    const { user } = renderPage();

    await user.click(within(await membersTable()).getByRole('button', { name: 'Remove Bob Builder' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove member' })).getByRole('button', { name: 'Remove member' }));

    expect((await screen.findByText(LAST_ADMIN)).closest('[role="alert"]')).toHaveTextContent('Bob Builder could not be removed');
    expect(within(await membersTable()).getByRole('combobox', { name: 'Role of Bob Builder' })).toBeInTheDocument();
  });

  it('checks the invitation before sending it, then says the e-mail is on its way', async () => {
    const { changes } = serve();
    const { user } = renderPage();
    const form = await screen.findByRole('form', { name: 'Invite someone' });
    const email = within(form).getByRole('textbox', { name: /E-mail/ });

    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(await within(form).findByText('The email field is required.')).toBeInTheDocument();
    await user.type(email, 'not-an-address');
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(await within(form).findByText('The email must be a valid email address.')).toBeInTheDocument();
    expect(changes()).toEqual([]);

    // Editor unless chosen otherwise.
    expect(within(form).getByRole('combobox', { name: 'Role' })).toHaveValue('Editor');
    await user.clear(email);
    await user.type(email, 'eve@example.com');
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));

    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('Invitation sent');
    expect(notice).toHaveTextContent('An e-mail inviting eve@example.com to join as an editor is on its way.');
    expect(changes()).toEqual([{ method: 'POST', path: '/team/invitations', body: { email: 'eve@example.com', role: 'editor' } }]);
    expect(await screen.findByRole('cell', { name: 'eve@example.com' })).toBeInTheDocument();
    expect(email).toHaveValue('');
  });

  it('shows the service’s refusal of an address that is already a member on the field', async () => {
    serve({
      answer: { 'POST /team/invitations': () => apiError(422, 'The given data was invalid.', { email: ['This address is already a member of the team.'] }) },
    });
    const { user } = renderPage();
    const form = await screen.findByRole('form', { name: 'Invite someone' });

    await user.type(within(form).getByRole('textbox', { name: /E-mail/ }), 'bob@herald.test');
    await user.click(within(form).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Viewer' }));
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));

    expect(await within(form).findByText('This address is already a member of the team.')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('withdraws a pending invitation once confirmed', async () => {
    const { changes } = serve();
    const { user } = renderPage();

    const invitations = await screen.findByRole('table', { name: 'Pending invitations' });
    expect(within(invitations).getAllByRole('row')[1]).toHaveTextContent('dora@example.comViewerAda Lovelace4 Nov 2026, 10:0011 Nov 2026, 10:00');
    await user.click(within(invitations).getByRole('button', { name: 'Withdraw the invitation to dora@example.com' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Withdraw invitation' })).getByRole('button', { name: 'Withdraw invitation' }));

    expect(await screen.findByText('No invitations are waiting to be accepted.')).toBeInTheDocument();
    expect(changes()).toEqual([{ method: 'DELETE', path: `/team/invitations/${PENDING.uuid}`, body: undefined }]);
  });
});

describe('the Team page, for other roles', SLOW, () => {
  it('shows a viewer the members and the rule, with nothing to change, and says why', async () => {
    const { sent } = serve({
      threshold: 250,
      settings: {
        confirm_threshold: 500,
        price_per_segment: 0.045,
        currency: 'EUR',
        quiet_hours: { start: '21:00', end: '08:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
        time_zone: 'America/Chicago',
        opt_out_reply: 'You will get no more messages from Acme.',
      },
    });
    renderPage('viewer');

    const table = await membersTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'E-mail', 'Role', 'Joined', 'Last seen']);
    expect(within(table).getAllByRole('row')[2]).toHaveTextContent('Bob Builderbob@herald.testEditor');
    expect(within(table).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(
      'You have the viewer role in Acme: you can read everything and e-mail reports, but not change anything.',
    );
    expect(await screen.findByText('Campaigns of at least 250 recipients need another admin’s approval before they start.')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Invite someone' })).not.toBeInTheDocument();
    expect(screen.getByText('Scheduling a campaign of at least 500 recipients asks to type that number first.')).toBeInTheDocument();
    expect(screen.getByText('€0.045 per SMS part.')).toBeInTheDocument();
    expect(screen.getByText('Nothing is sent from 21:00 to 08:00 the next day, Monday to Friday.')).toBeInTheDocument();
    expect(screen.getByText('America/Chicago')).toBeInTheDocument();
    const replies = screen.getByRole('region', { name: 'Automatic replies' });
    expect(within(replies).getByText('You will get no more messages from Acme.')).toBeInTheDocument();
    expect(within(replies).getAllByText('No reply.')).toHaveLength(2);
    for (const name of ['Sending safety', 'Cost estimate', 'Quiet hours', 'Automatic replies']) {
      expect(screen.queryByRole('form', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Invitations' })).not.toBeInTheDocument();
    // Invitations are the admins' (403 for the others): not even asked for.
    expect(sent.some((request) => request.path === '/team/invitations')).toBe(false);
  });

  it('tells an editor only admins change the team', async () => {
    serve();
    renderPage('editor');

    expect(await membersTable()).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(
      'Only admins of Acme can change the team’s members, invitations and settings; you have the editor role.',
    );
    expect(screen.queryByRole('combobox', { name: /^Role of/ })).not.toBeInTheDocument();
  });
});
