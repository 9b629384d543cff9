import { Button } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { json, mockApi, signIn } from '../../testing/mock-api';
import { render, screen, within } from '../../testing/render';
import type { ContactGroup } from '../../api/gen/types.gen';
import { useConfirmContactFlush } from './use-confirm-contact-flush';

const GROUP: ContactGroup = {
  uuid: '0f8c3a52-61a4-4b0e-9a51-3c1f1b0c9d11',
  name: 'Newsletter',
  description: null,
  deletable: true,
  number_of_contacts: 1250,
  status: 'Ready',
  headers: [],
  created_at: '2025-03-01 10:00:00',
  updated_at: '2025-03-01 10:00:00',
  links: [],
};

function FlushButton() {
  const confirmFlush = useConfirmContactFlush(GROUP);
  return <Button onClick={confirmFlush}>Remove all contacts</Button>;
}

describe('the flush confirmation', () => {
  it('names the group and the count, and sends nothing until confirmed', async () => {
    signIn();
    const fetchMock = mockApi(() => json({ data: { ...GROUP, number_of_contacts: 0, status: 'Empty' } }));
    const { user } = render(<FlushButton />);

    await user.click(screen.getByRole('button', { name: 'Remove all contacts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove all contacts' });
    expect(dialog).toHaveTextContent('Remove all 1,250 contacts from Newsletter?');
    expect(fetchMock).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Remove 1,250 contacts' }));

    expect(await screen.findByText('Every contact of Newsletter was removed.')).toBeInTheDocument();
    const [request] = fetchMock.mock.calls[0] ?? [];
    expect(request?.method).toBe('PUT');
    expect(request?.url).toMatch(new RegExp(`/api/2.0/contact-groups/${GROUP.uuid}/flush$`));
  });

  it('keeps the contacts when the person changes their mind', async () => {
    signIn();
    const fetchMock = mockApi(() => json({}));
    const { user } = render(<FlushButton />);

    await user.click(screen.getByRole('button', { name: 'Remove all contacts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove all contacts' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep them' }));

    expect(screen.queryByRole('dialog', { name: 'Remove all contacts' })).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
