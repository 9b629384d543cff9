import { Button } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '../testing/render';
import { useConfirmAction, useConfirmedMutation, type ConfirmActionOptions } from './use-confirm-action';

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

/** A deletion through the one confirm-then-call helper; `call` stands for the service. */
function DeleteButton({ call, onDeleted }: { call: (uuid: string) => Promise<{ name: string }>; onDeleted: () => void }) {
  const deletion = useMutation({ mutationFn: call });
  const confirm = useConfirmedMutation(deletion, (sender: { uuid: string; name: string }) => ({
    title: 'Delete sender',
    message: `Delete the sender ${sender.name}?`,
    confirmLabel: 'Delete sender',
    variables: sender.uuid,
    success: (deleted) => `The sender ${deleted.name} was deleted.`,
    failure: `The sender ${sender.name} could not be deleted`,
    onSuccess: onDeleted,
  }));
  return <Button onClick={() => confirm({ uuid: 's-1', name: 'AcmeShop' })}>Delete AcmeShop</Button>;
}

describe('a confirmed call to the service', () => {
  it('calls only once confirmed, with the subject’s variables, then says it is done', async () => {
    const call = vi.fn(async (_uuid: string) => ({ name: 'AcmeShop' }));
    const onDeleted = vi.fn();
    const { user } = render(<DeleteButton call={call} onDeleted={onDeleted} />);

    await user.click(screen.getByRole('button', { name: 'Delete AcmeShop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete sender' });
    expect(call).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Delete sender' }));

    expect(await screen.findByText('The sender AcmeShop was deleted.')).toBeInTheDocument();
    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0]![0]).toBe('s-1');
    expect(onDeleted).toHaveBeenCalledTimes(1);
  });

  it('calls nothing when dismissed, and shows the service’s refusal under its own title', async () => {
    const call = vi.fn(async (): Promise<{ name: string }> => {
      throw new Error('Templates still use it.');
    });
    const onDeleted = vi.fn();
    const { user } = render(<DeleteButton call={call} onDeleted={onDeleted} />);

    await user.click(screen.getByRole('button', { name: 'Delete AcmeShop' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete sender' })).not.toBeInTheDocument());
    expect(call).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Delete AcmeShop' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete sender' })).getByRole('button', { name: 'Delete sender' }));
    expect(await screen.findByText('The sender AcmeShop could not be deleted')).toBeInTheDocument();
    expect(call).toHaveBeenCalledTimes(1);
    expect(onDeleted).not.toHaveBeenCalled();
  });
});
