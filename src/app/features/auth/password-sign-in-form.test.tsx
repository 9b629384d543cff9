import { describe, expect, it } from 'vitest';
import { getSession } from '../../lib/session';
import { apiError, json, mockApi } from '../../testing/mock-api';
import { render, screen } from '../../testing/render';
import { PasswordSignInForm } from './password-sign-in-form';

const ADMIN = {
  uuid: '6b0cbb1e-50a4-4a55-8f4e-1d2b3c4d5e6f',
  name: 'Admin',
  email: 'admin@herald.test',
  current_team: { uuid: '7c1dcc2f-61b5-4b66-9a5f-2e3c4d5e6f70', name: 'Herald', role: 'admin' as const },
  teams: [{ uuid: '7c1dcc2f-61b5-4b66-9a5f-2e3c4d5e6f70', name: 'Herald', role: 'admin' as const }],
  app_timezone: 'Europe/London',
  created_at: '2026-11-01 08:00:00',
};

async function signInAs(email: string, password: string) {
  const rendered = render(<PasswordSignInForm />);
  await rendered.user.type(screen.getByRole('textbox', { name: /e-mail/i }), email);
  await rendered.user.type(screen.getByLabelText('Password', { exact: false, selector: 'input' }), password);
  await rendered.user.click(screen.getByRole('button', { name: 'Sign in' }));
  return rendered;
}

describe('PasswordSignInForm', () => {
  it('starts a password session kept in a cookie, with no token in the page', async () => {
    const fetchMock = mockApi(() => json({ data: ADMIN }));

    await signInAs('admin@herald.test', 'correct-horse-battery');

    await expect.poll(() => getSession()).toEqual({ baseUrl: window.location.origin, kind: 'password' });
    const request = fetchMock.mock.calls[0]?.[0];
    expect(request?.url).toBe(`${window.location.origin}/api/2.0/auth/session`);
    expect(await request?.json()).toEqual({ email: 'admin@herald.test', password: 'correct-horse-battery' });
  });

  it('says why the service refused, and keeps the user signed out', async () => {
    mockApi(() => apiError(401, 'These credentials do not match our records.'));

    await signInAs('admin@herald.test', 'wrong');

    expect(await screen.findByRole('alert')).toHaveTextContent('These credentials do not match our records.');
    expect(getSession()).toBeNull();
  });

  it('asks for both fields before calling the service', async () => {
    const fetchMock = mockApi(() => json({}));
    const { user } = render(<PasswordSignInForm />);

    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('The email field is required.')).toBeInTheDocument();
    expect(screen.getByText('The password field is required.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
