import type { Sender } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useDeleteSender } from './sender-mutations';

/** Asks before deleting a sender (it cannot be undone), then deletes it and says how it went. */
export function useConfirmSenderDeletion(onDeleted?: () => void) {
  const deletion = useDeleteSender();

  return useConfirmedMutation(deletion, (sender: Pick<Sender, 'uuid' | 'sender'>) => ({
    title: 'Delete sender',
    message: (
      <>
        Delete the sender <strong>{sender.sender}</strong>? Templates and campaigns can no longer use it. This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete sender',
    variables: sender.uuid,
    success: `The sender ${sender.sender} was deleted.`,
    onSuccess: () => onDeleted?.(),
    failure: `The sender ${sender.sender} could not be deleted`,
  }));
}
