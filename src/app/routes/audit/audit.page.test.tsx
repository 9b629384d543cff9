/**
 * The audit log page (issue 18, point 7): its filters live in the URL (read from it, written to it
 * as a history entry, sent with the request), a 422 on a filter shows on its field, each event reads
 * as words (action, who, resource with its page, changes before → after), and the CSV export asks
 * for the filters applied, through the session.
 *
 * Seen red: with `auditQuery` leaving out `from` and `to` (the requests lost them: the URL, the
 * apply and the export tests failed), with `setFilters` replacing the history entry instead of
 * adding one (Back no longer brought the previous filters back), and with the form's effect that
 * marks the service's errors removed (the 422 on `from` was no longer shown on the field).
 */
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEvent } from '../../api/gen/types.gen';
import { apiError, json, mockApi, page, signIn } from '../../testing/mock-api';
import { render, screen, waitFor, within } from '../../testing/render';
import AuditPage from './audit.page';

const CAMPAIGN = '5f0c2d1e-0000-4000-8000-00000000c0de';
const TEMPLATE = '6a1b2c3d-0000-4000-8000-0000000007e1';
const ADA = '33333333-3333-4333-8333-333333333333';

function auditEvent(overrides: Partial<AuditEvent>): AuditEvent {
  return {
    uuid: crypto.randomUUID(),
    created_at: '2026-11-02 09:30:15',
    actor: { kind: 'user', uuid: ADA, name: 'Ada Lovelace' },
    action: 'updateCampaign',
    resource_type: 'campaign',
    resource_uuid: CAMPAIGN,
    changes: {},
    ip: '203.0.113.7',
    ...overrides,
  };
}

const EVENTS: AuditEvent[] = [
  auditEvent({
    changes: {
      name: { before: 'Spring sale', after: 'Summer sale' },
      'approval.status': { before: 'approved', after: 'pending' },
      is_throttled: { before: false, after: true },
      description: { before: 'Old words', after: '' },
      body: { before: '(not shown)', after: '(not shown)' },
    },
  }),
  auditEvent({ action: 'updateCampaign.refused', created_at: '2026-11-02 09:29:00' }),
  auditEvent({
    action: 'createToken',
    actor: { kind: 'token', uuid: ADA, name: 'CRM export' },
    resource_type: 'token',
    resource_uuid: '7b7b7b7b-0000-4000-8000-000000000001',
    changes: { name: { after: 'Nightly' }, scope: { after: 'read_only' } },
  }),
  auditEvent({ action: 'loginFailed', actor: { kind: 'anonymous', uuid: null, name: 'mallory@example.com' }, resource_type: 'session', resource_uuid: '' }),
  auditEvent({ action: 'deleteTemplate', resource_type: 'template', resource_uuid: TEMPLATE, changes: { name: { before: 'Welcome' } } }),
  auditEvent({ action: 'toggleCampaignPaused', changes: { manually_paused: { before: null, after: true } } }),
];

function LocationProbe() {
  const navigate = useNavigate();
  return (
    <>
      <output data-testid="location">{useLocation().search}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        Browser back
      </button>
    </>
  );
}

function serve(answer: (url: URL) => Response = () => json(page(EVENTS))) {
  signIn();
  return mockApi((_request, url) => {
    if (url.pathname === '/api/2.0/audit-events.csv') {
      return new Response('\uFEFFtime,actor_kind,actor_uuid,actor,action,resource_type,resource_uuid,changes,ip\r\n', {
        headers: { 'Content-Type': 'text/csv; charset=utf-8' },
      });
    }
    if (url.pathname === '/api/2.0/audit-events') return answer(url);
    return apiError(404, 'Unexpected request');
  });
}

/** The audit-events list requests made, as their query strings in a stable order. */
function listRequests(fetchMock: ReturnType<typeof mockApi>, pathname = '/api/2.0/audit-events') {
  return fetchMock.mock.calls
    .map(([request]) => new URL(request.url))
    .filter((url) => url.pathname === pathname)
    .map((url) => Object.fromEntries(url.searchParams));
}

function renderAt(route: string) {
  return render(
    <Routes>
      <Route
        path="/audit"
        element={
          <>
            <AuditPage />
            <LocationProbe />
          </>
        }
      />
    </Routes>,
    // Every role reads the log.
    { route, role: 'viewer' },
  );
}

const location = () => new URLSearchParams(screen.getByTestId('location').textContent ?? '');

describe('the audit log page', { timeout: 20_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads its filters from the URL, shows them in the form and sends them with the page asked for', async () => {
    const fetchMock = serve();
    renderAt(`/audit?actor=Ada&action=updateCampaign&resource_uuid=${CAMPAIGN}&from=2026-11-01+08:00:00&to=2026-11-03+00:00:00&page=2&per_page=25`);

    await screen.findByRole('table', { name: 'Audit events' });
    expect(listRequests(fetchMock)).toEqual([
      { page: '2', per_page: '25', actor: 'Ada', action: 'updateCampaign', resource_uuid: CAMPAIGN, from: '2026-11-01 08:00:00', to: '2026-11-03 00:00:00' },
    ]);
    const form = screen.getByRole('search', { name: 'Filter the audit log' });
    expect(within(form).getByRole('textbox', { name: /Who/ })).toHaveValue('Ada');
    expect(within(form).getByRole('combobox', { name: /Action/ })).toHaveValue('updateCampaign');
    expect(within(form).getByRole('textbox', { name: /Resource uuid/ })).toHaveValue(CAMPAIGN);
    expect(within(form).getByRole('textbox', { name: /From/ })).toHaveValue('2026-11-01 08:00');
    expect(within(form).getByRole('textbox', { name: /To/ })).toHaveValue('2026-11-03 00:00');
  });

  it('writes the filters applied to the URL from the first page, sends them, resets them, and Back brings them back', async () => {
    const fetchMock = serve();
    const { user } = renderAt('/audit?page=3');
    const form = await screen.findByRole('search', { name: 'Filter the audit log' });

    await user.type(within(form).getByRole('textbox', { name: /Who/ }), 'ada');
    // The action is found by what the log calls it, and sent by its name.
    await user.type(within(form).getByRole('combobox', { name: /Action/ }), 'failed sign');
    await user.click(await screen.findByRole('option', { name: /Failed sign-in/ }));
    await user.type(within(form).getByRole('textbox', { name: /From/ }), '2026-11-01 08:00');
    await user.click(within(form).getByRole('button', { name: 'Apply filters' }));

    await waitFor(() => expect(Object.fromEntries(location())).toEqual({ actor: 'ada', action: 'loginFailed', from: '2026-11-01 08:00:00' }));
    await waitFor(() =>
      expect(listRequests(fetchMock).at(-1)).toEqual({ page: '1', per_page: '15', actor: 'ada', action: 'loginFailed', from: '2026-11-01 08:00:00' }),
    );

    await user.click(within(form).getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(location().toString()).toBe(''));
    expect(within(form).getByRole('textbox', { name: /Who/ })).toHaveValue('');
    await waitFor(() => expect(listRequests(fetchMock).at(-1)).toEqual({ page: '1', per_page: '15' }));

    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    await waitFor(() => expect(within(form).getByRole('textbox', { name: /Who/ })).toHaveValue('ada'));
    expect(within(form).getByRole('combobox', { name: /Action/ })).toHaveValue('loginFailed');
    expect(location().get('action')).toBe('loginFailed');
  });

  it('checks the filters before asking: a partial uuid, an end before the start', async () => {
    const fetchMock = serve();
    const { user } = renderAt('/audit');
    const form = await screen.findByRole('search', { name: 'Filter the audit log' });
    await screen.findByRole('table', { name: 'Audit events' });

    await user.type(within(form).getByRole('textbox', { name: /Resource uuid/ }), '5f0c2d1e');
    await user.type(within(form).getByRole('textbox', { name: /From/ }), '2026-11-02 08:00');
    await user.type(within(form).getByRole('textbox', { name: /To/ }), '2026-11-01 08:00');
    await user.click(within(form).getByRole('button', { name: 'Apply filters' }));

    expect(await within(form).findByText('Enter a whole uuid, e.g. 1a2b3c4d-0000-4000-8000-000000000001.')).toBeInTheDocument();
    expect(within(form).getByText('The end must be after the start.')).toBeInTheDocument();
    expect(location().toString()).toBe('');
    expect(listRequests(fetchMock)).toHaveLength(1);
  });

  it('shows the service’s 422 on from and to on those fields', async () => {
    serve(() =>
      apiError(422, 'The given data was invalid.', {
        from: ['The from is not a valid date.'],
        to: ['The to must be a date and time of the form YYYY-MM-DD HH:MM:SS.'],
      }),
    );
    renderAt('/audit?from=2026-02-30+10:00:00&to=tomorrow');

    // What the address gave is named, not shown in the field (its calendar would read 2 March).
    expect(await screen.findByText('The from is not a valid date. (“2026-02-30 10:00:00”)')).toBeInTheDocument();
    const from = screen.getByRole('textbox', { name: /From/ });
    expect(from).toHaveValue('');
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(from).toHaveAccessibleDescription(/The from is not a valid date\./);
    expect(screen.getByRole('textbox', { name: /To/ })).toHaveAccessibleDescription(
      /The to must be a date and time of the form YYYY-MM-DD HH:MM:SS\. \(“tomorrow”\)/,
    );
    expect(screen.getByText('These filters cannot be used')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    expect(screen.queryByRole('table', { name: 'Audit events' })).not.toBeInTheDocument();
  });

  it('reads each event as words: the action, who did it, the resource with its page and history', async () => {
    serve();
    renderAt('/audit');

    const table = await screen.findByRole('table', { name: 'Audit events' });
    const columns = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(columns).toEqual(['Time', 'Who', 'Action', 'Resource', 'Changes', 'IP address']);
    const rows = within(table).getAllByRole('row').slice(1);
    const cell = (row: number, column: string) => within(rows[row]!).getAllByRole('cell')[columns.indexOf(column)]!;

    expect(cell(0, 'Time')).toHaveTextContent(/^2 Nov 2026, 09:30:15$/);
    expect(cell(0, 'Who')).toHaveTextContent(/^Ada Lovelace$/);
    expect(cell(0, 'Action')).toHaveTextContent(/^Updated campaignupdateCampaign$/);
    expect(within(cell(0, 'Resource')).getByRole('link', { name: 'Campaign 5f0c2d1e' })).toHaveAttribute('href', `/campaigns/${CAMPAIGN}`);
    expect(within(cell(0, 'Resource')).getByRole('link', { name: 'History of campaign 5f0c2d1e' })).toHaveAttribute('href', `/audit?resource_uuid=${CAMPAIGN}`);
    expect(cell(0, 'IP address')).toHaveTextContent('203.0.113.7');

    expect(cell(1, 'Action')).toHaveTextContent(/^Edit refused \(locked\)updateCampaign\.refused$/);

    expect(cell(2, 'Who')).toHaveTextContent(/^CRM exportAPI token$/);
    expect(cell(2, 'Action')).toHaveTextContent(/^Created API tokencreateToken$/);
    expect(cell(2, 'Resource')).toHaveTextContent(/^API token 7b7b7b7bHistory$/);
    expect(within(cell(2, 'Resource')).queryByRole('link', { name: /^API token/ })).not.toBeInTheDocument();

    expect(cell(3, 'Who')).toHaveTextContent(/^mallory@example\.comNot signed in$/);
    expect(cell(3, 'Action')).toHaveTextContent(/^Failed sign-inloginFailed$/);
    expect(cell(3, 'Resource')).toHaveTextContent(/^Sign-in$/);

    // A deleted template has no page to open any more; its history still has.
    expect(cell(4, 'Action')).toHaveTextContent(/^Deleted templatedeleteTemplate$/);
    expect(within(cell(4, 'Resource')).queryByRole('link', { name: /^Template/ })).not.toBeInTheDocument();
    expect(within(cell(4, 'Resource')).getByRole('link', { name: 'History of template 6a1b2c3d' })).toBeInTheDocument();

    expect(cell(5, 'Action')).toHaveTextContent(/^Paused campaigntoggleCampaignPaused$/);
  });

  it('lists the changes as field: before → after, folding a long list behind “Show all”', async () => {
    serve();
    const { user } = renderAt('/audit');

    const table = await screen.findByRole('table', { name: 'Audit events' });
    const [first, , token, , deleted, paused] = within(table).getAllByRole('row').slice(1);
    const lines = (row: HTMLElement) =>
      within(within(row).getByRole('list', { name: 'Changes' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent);

    expect(lines(first!)).toEqual(['name: Spring sale → Summer sale', 'approval.status: approved → pending', 'is_throttled: no → yes']);
    const showAll = within(first!).getByRole('button', { name: 'Show all 5 changes' });
    expect(showAll).toHaveAttribute('aria-expanded', 'false');
    await user.click(showAll);
    expect(lines(first!)).toEqual([
      'name: Spring sale → Summer sale',
      'approval.status: approved → pending',
      'is_throttled: no → yes',
      'description: Old words → empty',
      'body: (not shown) → (not shown)',
    ]);
    expect(within(first!).getByRole('button', { name: 'Show fewer' })).toHaveAttribute('aria-expanded', 'true');

    expect(lines(token!)).toEqual(['name: Nightly', 'scope: read_only']);
    expect(within(token!).queryByRole('button', { name: /Show all/ })).not.toBeInTheDocument();
    expect(lines(deleted!)).toEqual(['name: Welcome → removed']);
    expect(lines(paused!)).toEqual(['manually_paused: none → yes']);
  });

  it('exports the CSV of the filters applied, through the session', async () => {
    const fetchMock = serve();
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:http://localhost/audit';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const { user } = renderAt('/audit?action=login&actor=ada&from=2026-11-01+08:00:00&to=2026-11-03+00:00:00&page=2');

    await screen.findByRole('table', { name: 'Audit events' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(saved).toEqual([{ href: 'blob:http://localhost/audit', download: 'audit-log.csv' }]));
    expect(listRequests(fetchMock, '/api/2.0/audit-events.csv')).toEqual([
      { actor: 'ada', action: 'login', from: '2026-11-01 08:00:00', to: '2026-11-03 00:00:00' },
    ]);
    const download = fetchMock.mock.calls.map(([request]) => request).find((request) => request.url.includes('/audit-events.csv'));
    // A read: the session cookie alone (the browser sends it), no token in the page.
    expect(download?.headers.get('Authorization')).toBeNull();
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    // The byte order mark, once, then the header.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toMatch(/^time,actor_kind,/);
  });

  it('says when there is nothing yet, and when the filters match nothing (with a way back)', async () => {
    serve(() => json(page([])));
    const first = renderAt('/audit');
    expect(await screen.findByText('No events yet')).toBeInTheDocument();
    first.unmount();

    const { user } = renderAt('/audit?actor=nobody');
    expect(await screen.findByText('No events match these filters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset filters' }));
    await waitFor(() => expect(location().toString()).toBe(''));
    expect(await screen.findByText('No events yet')).toBeInTheDocument();
  });
});
