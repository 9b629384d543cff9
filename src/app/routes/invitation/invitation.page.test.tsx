/**
 * The public invitation page (issue 18, point 3): the secret is read from the link's fragment; a new
 * person sets a name and a password (checked here first: 12 characters, typed twice), someone with
 * an account joins with one button; either way the page ends on a way to sign in. A used, withdrawn
 * or expired link says to ask an admin for a new one.
 *
 * Seen red: with the page reading the secret from `?token=` instead of the fragment (GET
 * /invitations/ with no secret), and with the existing-user button sending `name: ''` and
 * `password: ''` (the body was not `{ token }` alone).
 */
import { Link, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { InvitationPreview } from '../../api/gen/types.gen';
import { startSession } from '../../lib/session';
import { apiError, json, mockApi } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import InvitationPage from './invitation.page';

const SECRET = 'Zm9vYmFyLXNlY3JldC1vZi0zMi1ieXRlcw';
const GONE = 'This invitation link is not valid: it was used, withdrawn or has expired. Ask an admin of the team for a new one.';

function preview(overrides: Partial<InvitationPreview> = {}): InvitationPreview {
  return { team_name: 'Acme', email: 'eve@example.com', role: 'editor', existing_user: false, expires_at: '2026-11-11 10:00:00', ...overrides };
}

interface Sent {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}

function serve({ link = () => json({ data: preview() }), accept }: { link?: () => Response; accept?: (body: Record<string, unknown>) => Response } = {}) {
  const sent: Sent[] = [];
  const fetchMock = mockApi(async (request, url) => {
    const body = request.method === 'POST' ? ((await request.json()) as Record<string, unknown>) : undefined;
    sent.push({ method: request.method, path: url.pathname, authorization: request.headers.get('Authorization'), body });
    if (request.method === 'GET') return link();
    return (
      accept?.(body!) ?? json({ data: { email: 'eve@example.com', team: { uuid: '7c1dcc2f-61b5-4b66-9a5f-2e3c4d5e6f70', name: 'Acme', role: 'editor' } } })
    );
  });
  return { sent, fetchMock };
}

function renderAt(route: string) {
  return render(
    <Routes>
      <Route path="/invitation" element={<InvitationPage />} />
      <Route path="/sign-in" element={<h1>Sign in to Herald</h1>} />
    </Routes>,
    { route },
  );
}

describe('the invitation page', () => {
  it('lets a new person choose a name and a password, checked before they are sent', async () => {
    const { sent } = serve();
    const { user } = renderAt(`/invitation#${SECRET}`);

    expect(await screen.findByRole('heading', { name: 'Join Acme as an editor', level: 1 })).toBeInTheDocument();
    expect(sent).toEqual([{ method: 'GET', path: `/api/2.0/invitations/${SECRET}`, authorization: null, body: undefined }]);
    const form = screen.getByRole('form', { name: 'Create your account' });
    expect(within(form).getByRole('textbox', { name: 'E-mail' })).toHaveValue('eve@example.com');

    await user.click(within(form).getByRole('button', { name: 'Create account and join' }));
    expect(await within(form).findByText('Enter your name.')).toBeInTheDocument();
    expect(within(form).getByText('The password must be at least 12 characters.')).toBeInTheDocument();

    await user.type(within(form).getByRole('textbox', { name: /Your name/ }), 'Eve Example');
    await user.type(within(form).getByLabelText(/^Password/), 'long-enough-secret');
    await user.type(within(form).getByLabelText(/^Confirm password/), 'long-enough-secreT');
    await user.click(within(form).getByRole('button', { name: 'Create account and join' }));
    expect(await within(form).findByText('The passwords do not match.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'POST')).toEqual([]);

    await user.clear(within(form).getByLabelText(/^Confirm password/));
    await user.type(within(form).getByLabelText(/^Confirm password/), 'long-enough-secret');
    await user.click(within(form).getByRole('button', { name: 'Create account and join' }));

    expect(await screen.findByRole('status')).toHaveTextContent('You are now an editor of Acme. Sign in with eve@example.com to start.');
    expect(sent.filter((request) => request.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/2.0/invitations/accept',
        authorization: null,
        body: { token: SECRET, name: 'Eve Example', password: 'long-enough-secret' },
      },
    ]);
    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Herald' })).toBeInTheDocument();
  });

  it('shows the service’s refusal of a password on the field', async () => {
    serve({ accept: () => apiError(422, 'The given data was invalid.', { password: ['The password must be at least 12 characters.'] }) });
    const { user } = renderAt(`/invitation#${SECRET}`);

    const form = await screen.findByRole('form', { name: 'Create your account' });
    await user.type(within(form).getByRole('textbox', { name: /Your name/ }), 'Eve');
    await user.type(within(form).getByLabelText(/^Password/), 'twelve chars');
    await user.type(within(form).getByLabelText(/^Confirm password/), 'twelve chars');
    await user.click(within(form).getByRole('button', { name: 'Create account and join' }));

    expect(await within(form).findByText('The password must be at least 12 characters.')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('lets someone with an account join with one button, then sign in as usual', async () => {
    const { sent } = serve({ link: () => json({ data: preview({ role: 'viewer', existing_user: true }) }) });
    const { user } = renderAt(`/invitation#${SECRET}`);

    expect(await screen.findByRole('heading', { name: 'Join Acme as a viewer', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/already has a Herald account/)).toHaveTextContent('eve@example.com already has a Herald account.');
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Join the team' }));

    expect(await screen.findByRole('status')).toHaveTextContent('You joined the team');
    expect(sent.at(-1)).toEqual({ method: 'POST', path: '/api/2.0/invitations/accept', authorization: null, body: { token: SECRET } });
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
  });

  it('says a used, withdrawn or expired link cannot be used, and to ask an admin for a new one', async () => {
    serve({ link: () => apiError(404, GONE) });
    renderAt(`/invitation#${SECRET}`);

    expect(await screen.findByRole('heading', { name: 'This invitation cannot be used', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/Ask an admin of the team for a new invitation\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to Herald' })).toHaveAttribute('href', '/sign-in');
  });

  it('says the same of a link used in the meantime, found on accepting', async () => {
    serve({ link: () => json({ data: preview({ existing_user: true }) }), accept: () => apiError(404, GONE) });
    const { user } = renderAt(`/invitation#${SECRET}`);

    await user.click(await screen.findByRole('button', { name: 'Join the team' }));

    expect(await screen.findByRole('heading', { name: 'This invitation cannot be used', level: 1 })).toBeInTheDocument();
  });

  it('reads another link pasted into the same tab (only the fragment changes)', async () => {
    serve({ link: () => apiError(404, GONE) });
    const { user } = render(
      <>
        <Link to="/invitation#a-newer-secret">the newer link</Link>
        <Routes>
          <Route path="/invitation" element={<InvitationPage />} />
        </Routes>
      </>,
      { route: `/invitation#${SECRET}` },
    );
    expect(await screen.findByRole('heading', { name: 'This invitation cannot be used', level: 1 })).toBeInTheDocument();

    serve({ link: () => json({ data: preview({ team_name: 'Globex' }) }) });
    await user.click(screen.getByRole('link', { name: 'the newer link' }));

    expect(await screen.findByRole('heading', { name: 'Join Globex as an editor', level: 1 })).toBeInTheDocument();
  });

  it('says a link without its secret cannot be used, without asking the service', async () => {
    const { fetchMock } = serve();
    renderAt('/invitation');

    expect(await screen.findByRole('heading', { name: 'This invitation cannot be used', level: 1 })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks the Herald that served the page, even when signed in to another service with a token', async () => {
    startSession({ baseUrl: 'https://elsewhere.example', token: 'hrld_elsewhere', kind: 'token' });
    const { fetchMock } = serve();
    renderAt(`/invitation#${SECRET}`);

    expect(await screen.findByRole('heading', { name: 'Join Acme as an editor', level: 1 })).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0].url).toBe(`${window.location.origin}/api/2.0/invitations/${SECRET}`);
  });
});
