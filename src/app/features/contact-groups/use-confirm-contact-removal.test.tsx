/**
 * Taking a number out of default_optouts asks for a reason (issue 19, point 7); other groups keep
 * their plain confirmation.
 *
 * Seen red: with the hook answering `confirm` for every group, the default_optouts test found no
 * "Reason" field; with the form's `min(1)` removed, an empty reason was sent (a request was made).
 */
import { Button } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import type { Contact, ContactGroup } from '../../api/gen/types.gen';
import { apiError, json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import { useConfirmContactFlush } from './use-confirm-contact-flush';
import { useConfirmContactRemoval } from './use-confirm-contact-removal';

const group = (name: string): ContactGroup => ({
  uuid: '0f8c3a52-61a4-4b0e-9a51-3c1f1b0c9d11',
  name,
  description: null,
  deletable: name !== 'default_optouts',
  number_of_contacts: 2,
  status: 'Ready',
  headers: [],
  created_at: '2025-03-01 10:00:00',
  updated_at: '2025-03-01 10:00:00',
  links: [],
});
const CONTACT: Pick<Contact, 'phone_number'> = { phone_number: '447700900123' };

function RemoveButton({ name }: { name: string }) {
  const confirmRemoval = useConfirmContactRemoval(group(name));
  const confirmFlush = useConfirmContactFlush(group(name));
  return (
    <>
      <Button onClick={() => confirmRemoval(CONTACT)}>Remove</Button>
      <Button onClick={confirmFlush}>Remove all</Button>
    </>
  );
}

describe('removing a number from default_optouts', () => {
  it('asks for a reason, sends nothing without one, then sends it with the removal', async () => {
    signIn();
    const fetchMock = mockApi(() => json({ data: { ...group('default_optouts'), number_of_contacts: 1 } }));
    const { user } = render(<RemoveButton name="default_optouts" />);

    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove opt-out' });
    expect(dialog).toHaveTextContent('Campaigns will reach it again.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove opt-out' }));
    expect(await within(dialog).findByText('Say why: the reason is kept in the opt-out history and the audit log.')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Remove opt-out' }));
    expect(fetchMock).not.toHaveBeenCalled();

    await user.clear(within(dialog).getByRole('textbox', { name: 'Reason' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Asked by phone to hear from us again');
    await user.click(within(dialog).getByRole('button', { name: 'Remove opt-out' }));

    expect(await screen.findByText(/was removed from default_optouts\./)).toBeInTheDocument();
    const [request] = fetchMock.mock.calls[0] ?? [];
    expect(request?.method).toBe('PUT');
    expect(request?.url).toMatch(/\/contact-groups\/0f8c3a52-61a4-4b0e-9a51-3c1f1b0c9d11\/remove-contacts$/);
    expect(await request?.json()).toEqual({ phone_numbers: ['447700900123'], reason: 'Asked by phone to hear from us again' });
    expect(screen.queryByRole('dialog', { name: 'Remove opt-out' })).not.toBeInTheDocument();
  });

  it('shows the service’s refusal of the reason on the field, and keeps the dialog open', async () => {
    signIn();
    mockApi(() => apiError(422, 'The given data was invalid.', { reason: ['The reason contains characters that cannot be stored.'] }));
    const { user } = render(<RemoveButton name="default_optouts" />);
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove opt-out' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Because');
    await user.click(within(dialog).getByRole('button', { name: 'Remove opt-out' }));
    expect(await within(dialog).findByText('The reason contains characters that cannot be stored.')).toBeInTheDocument();
  });

  it('asks for a reason before emptying default_optouts, sent as ?reason=', async () => {
    signIn();
    const fetchMock = mockApi(() => json({ data: { ...group('default_optouts'), number_of_contacts: 0, status: 'Empty' } }));
    const { user } = render(<RemoveButton name="default_optouts" />);
    await user.click(screen.getByRole('button', { name: 'Remove all' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove all opt-outs' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Imported the wrong file');
    await user.click(within(dialog).getByRole('button', { name: 'Remove 2 contacts' }));
    expect(await screen.findByText('Every number of default_optouts was removed.')).toBeInTheDocument();
    const [request] = fetchMock.mock.calls[0] ?? [];
    expect(new URL(request!.url).searchParams.get('reason')).toBe('Imported the wrong file');
  });
});

describe('removing a number from another group', () => {
  it('keeps the plain confirmation, without a reason', async () => {
    signIn();
    const fetchMock = mockApi(() => json({ data: { ...group('Newsletter'), number_of_contacts: 1 } }));
    const { user } = render(<RemoveButton name="Newsletter" />);
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove contact' });
    expect(within(dialog).queryByRole('textbox', { name: 'Reason' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove contact' }));
    expect(await screen.findByText(/was removed from Newsletter\./)).toBeInTheDocument();
    const [request] = fetchMock.mock.calls[0] ?? [];
    expect(await request?.json()).toEqual({ phone_numbers: ['447700900123'] });
  });
});
