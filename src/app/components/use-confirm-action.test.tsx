import { Button } from '@mantine/core';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '../testing/render';
import { useConfirmAction, type ConfirmActionOptions } from './use-confirm-action';

interface Group {
  name: string;
  count: number;
}

const GROUP: Group = { name: 'Newsletter', count: 1250 };

function FlushButton({ onConfirm, ...wording }: Partial<ConfirmActionOptions> & { onConfirm: (group: Group) => void }) {
  const confirm = useConfirmAction((group: Group) => ({
    title: 'Remove all contacts',
    message: (
      <>
        Remove all {group.count.toLocaleString('en-GB')} contacts from <strong>{group.name}</strong>? The group stays, empty.
      </>
    ),
    confirmLabel: `Remove ${group.count.toLocaleString('en-GB')} contacts`,
    onConfirm: () => onConfirm(group),
    ...wording,
  }));
  return <Button onClick={() => confirm(GROUP)}>Remove all contacts</Button>;
}

describe('the confirmation of a destructive action', () => {
  it('words the dialog for its subject, and runs the action only once confirmed', async () => {
    const action = vi.fn();
    const { user } = render(<FlushButton onConfirm={action} />);

    await user.click(screen.getByRole('button', { name: 'Remove all contacts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove all contacts' });
    expect(dialog).toHaveTextContent('Remove all 1,250 contacts from Newsletter? The group stays, empty.');
    expect(within(dialog).getByText('Newsletter').tagName).toBe('STRONG');
    expect(within(dialog).getByRole('button', { name: 'Keep it' })).toBeInTheDocument();
    expect(action).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Remove 1,250 contacts' }));

    expect(action).toHaveBeenCalledTimes(1);
    expect(action).toHaveBeenCalledWith(GROUP);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove all contacts' })).not.toBeInTheDocument());
  });

  it('does nothing when the person changes their mind', async () => {
    const action = vi.fn();
    const { user } = render(<FlushButton onConfirm={action} cancelLabel="Keep them" />);

    await user.click(screen.getByRole('button', { name: 'Remove all contacts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove all contacts' });
    expect(within(dialog).queryByRole('button', { name: 'Keep it' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Keep them' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove all contacts' })).not.toBeInTheDocument());
    expect(action).not.toHaveBeenCalled();
  });

  it('colours the confirm button red unless told otherwise', async () => {
    const { user, unmount } = render(<FlushButton onConfirm={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Remove all contacts' }));
    const red = await screen.findByRole('button', { name: 'Remove 1,250 contacts' });
    expect(red.getAttribute('style')).toContain('--mantine-color-red-filled');
    unmount();

    const rotation = render(<FlushButton onConfirm={vi.fn()} confirmLabel="Rotate secret" color="orange" />);
    await rotation.user.click(screen.getByRole('button', { name: 'Remove all contacts' }));
    const orange = await screen.findByRole('button', { name: 'Rotate secret' });
    expect(orange.getAttribute('style')).toContain('--mantine-color-orange-filled');
  });
});
