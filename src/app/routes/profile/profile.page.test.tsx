/**
 * The profile page (issue 18, point 4): the name the team sees, saved so the header shows it at
 * once, with the member's own phone number for test sends (issue 19: sent as typed, shown as the
 * service read it, cleared by an empty field, its 422 on the field), and a password change that checks what it can before asking the service and puts the
 * service's 422 on the field it names.
 *
 * Seen red: with the cache update removed from useUpdateProfile (the menu kept "Ada Lovelace"), and
 * with `current_password` left out of the fields the change-password form maps (the service's
 * sentence went to the form's alert instead of the field), and the same with `phone_number` in the
 * profile form.
 */
import { useQuery } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../api/gen/types.gen';
import { currentUserKeys, currentUserQueries } from '../../features/auth/current-user-queries';
import { createQueryClient } from '../../lib/query-client';
import { UserMenu } from '../../features/auth/user-menu';
import { currentUser } from '../../testing/current-user';
import { apiError, json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import ProfilePage from './profile.page';

/** The page with the header's user menu beside it, both reading the signed-in user as the shell does. */
function ProfileWithMenu() {
  const { data: user } = useQuery(currentUserQueries.me());
  return (
    <>
      {user && <UserMenu user={user} />}
      <ProfilePage />
    </>
  );
}

function renderProfile(handler: Parameters<typeof mockApi>[0], saved: Partial<CurrentUser> = {}) {
  signIn();
  const fetchMock = mockApi(handler);
  const queryClient = createQueryClient();
  queryClient.setQueryData(currentUserKeys.me(), currentUser('editor', saved));
  const rendered = render(<ProfileWithMenu />, { queryClient });
  const nameForm = screen.getByRole('form', { name: 'Your profile' });
  const passwordForm = screen.getByRole('form', { name: 'Change your password' });
  return { ...rendered, fetchMock, nameForm, passwordForm };
}

/** A password field by its whole label (the required asterisk aside): "New password" is not "New password again". */
const passwordField = (form: HTMLElement) => (label: string) => within(form).getByLabelText(new RegExp(`^${label}\\s*\\*?$`), { selector: 'input' });

describe('the profile page', () => {
  it('saves the name with the phone number, and the header shows the new name at once', async () => {
    const { user, fetchMock, nameForm } = renderProfile(() => json({ data: currentUser('editor', { name: 'Ada King', phone_number: '447700900123' }) }));
    expect(screen.getByRole('button', { name: 'Account of Ada Lovelace' })).toBeInTheDocument();
    const name = within(nameForm).getByRole('textbox', { name: 'Name' });
    const phone = within(nameForm).getByRole('textbox', { name: 'Your phone number' });
    expect(name).toHaveValue('Ada Lovelace');
    expect(phone).toHaveValue('');

    await user.clear(name);
    await user.type(name, 'Ada King');
    await user.type(phone, ' 07700 900123 ');
    await user.click(within(nameForm).getByRole('button', { name: 'Save profile' }));

    expect(await screen.findByRole('button', { name: 'Account of Ada King' })).toBeInTheDocument();
    expect(await screen.findByText('Your name is Ada King; test sends go to +447700900123.')).toBeInTheDocument();
    // The number as the service read it.
    expect(phone).toHaveValue('+447700900123');
    const request = fetchMock.mock.calls[0]![0];
    expect(request.method).toBe('PUT');
    expect(new URL(request.url).pathname).toBe('/api/2.0/users/me');
    expect(await request.json()).toEqual({ name: 'Ada King', phone_number: '07700 900123' });
  });

  it('clears the phone number with an empty field', async () => {
    const { user, fetchMock, nameForm } = renderProfile(() => json({ data: currentUser('editor', { phone_number: null }) }), { phone_number: '447700900123' });
    const phone = within(nameForm).getByRole('textbox', { name: 'Your phone number' });
    expect(phone).toHaveValue('+447700900123');

    await user.clear(phone);
    await user.click(within(nameForm).getByRole('button', { name: 'Save profile' }));

    expect(await screen.findByText('Your name is Ada Lovelace; you have no phone number for test sends.')).toBeInTheDocument();
    expect(await fetchMock.mock.calls[0]![0].json()).toEqual({ name: 'Ada Lovelace', phone_number: '' });
    expect(phone).toHaveValue('');
  });

  it('puts the service’s refusal of the phone number on that field', async () => {
    const { user, nameForm } = renderProfile(() => apiError(422, 'The given data was invalid.', { phone_number: ['The phone number is not a phone number.'] }));
    const phone = within(nameForm).getByRole('textbox', { name: 'Your phone number' });

    await user.type(phone, 'call me');
    await user.click(within(nameForm).getByRole('button', { name: 'Save profile' }));

    expect(await within(nameForm).findByText('The phone number is not a phone number.')).toBeInTheDocument();
    expect(phone).toHaveAttribute('aria-invalid', 'true');
    expect(phone).toHaveFocus();
    expect(within(nameForm).queryByRole('alert')).not.toBeInTheDocument();
    // Cancel goes back to what is saved.
    await user.click(within(nameForm).getByRole('button', { name: 'Cancel' }));
    expect(phone).toHaveValue('');
  });

  it('asks for a name before calling the service', async () => {
    const { user, fetchMock, nameForm } = renderProfile(() => json({}));

    await user.clear(within(nameForm).getByRole('textbox', { name: 'Name' }));
    await user.click(within(nameForm).getByRole('button', { name: 'Save profile' }));

    expect(await within(nameForm).findByText('The name field is required.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('checks the new password’s length and that it was typed the same twice, before calling the service', async () => {
    const { user, fetchMock, passwordForm } = renderProfile(() => json({}));
    const field = passwordField(passwordForm);

    await user.type(field('Current password'), 'correct-horse-battery');
    await user.type(field('New password'), 'too-short');
    await user.type(field('New password again'), 'something-else');
    await user.click(within(passwordForm).getByRole('button', { name: 'Change password' }));

    expect(await within(passwordForm).findByText('The new password must be at least 12 characters.')).toBeInTheDocument();
    expect(within(passwordForm).getByText('The two new passwords do not match.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('puts the service’s refusal of the current password on that field', async () => {
    const { user, passwordForm } = renderProfile(() =>
      apiError(422, 'The given data was invalid.', { current_password: ['The current password is not correct.'] }),
    );
    const field = passwordField(passwordForm);
    const current = field('Current password');

    await user.type(current, 'not-my-password');
    await user.type(field('New password'), 'a-much-longer-password');
    await user.type(field('New password again'), 'a-much-longer-password');
    await user.click(within(passwordForm).getByRole('button', { name: 'Change password' }));

    expect(await within(passwordForm).findByText('The current password is not correct.')).toBeInTheDocument();
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(current).toHaveFocus();
    expect(within(passwordForm).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(passwordForm).queryByRole('status')).not.toBeInTheDocument();
  });

  it('changes the password, clears the fields and says the other sessions were signed out', async () => {
    const { user, fetchMock, passwordForm } = renderProfile(() => new Response(null, { status: 204 }));
    const field = passwordField(passwordForm);

    await user.type(field('Current password'), 'correct-horse-battery');
    await user.type(field('New password'), 'a-much-longer-password');
    await user.type(field('New password again'), 'a-much-longer-password');
    await user.click(within(passwordForm).getByRole('button', { name: 'Change password' }));

    const done = await within(passwordForm).findByRole('status');
    expect(done).toHaveTextContent('Your password was changed');
    expect(done).toHaveTextContent('Your other dashboard sessions were signed out');
    expect(field('Current password')).toHaveValue('');
    expect(field('New password')).toHaveValue('');
    const request = fetchMock.mock.calls[0]![0];
    expect(request.method).toBe('PUT');
    expect(new URL(request.url).pathname).toBe('/api/2.0/users/me/password');
    expect(await request.json()).toEqual({ current_password: 'correct-horse-battery', new_password: 'a-much-longer-password', revoke_api_tokens: false });
    expect(done).toHaveTextContent('Your API tokens keep working.');
  });

  it('revokes the API tokens too when asked', async () => {
    const { user, fetchMock, passwordForm } = renderProfile(() => new Response(null, { status: 204 }));
    const field = passwordField(passwordForm);
    await user.type(field('Current password'), 'correct-horse-battery');
    await user.type(field('New password'), 'a-much-longer-password');
    await user.type(field('New password again'), 'a-much-longer-password');
    const revoke = within(passwordForm).getByRole('checkbox', { name: /Also revoke my API tokens/ });
    expect(revoke).not.toBeChecked();
    await user.click(revoke);
    await user.click(within(passwordForm).getByRole('button', { name: 'Change password' }));

    expect(await within(passwordForm).findByRole('status')).toHaveTextContent('Your API tokens were revoked');
    expect(await fetchMock.mock.calls[0]![0].json()).toMatchObject({ revoke_api_tokens: true });
  });
});
