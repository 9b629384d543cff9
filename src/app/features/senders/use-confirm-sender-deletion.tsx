import type { Sender } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteSender } from './sender-mutations';

/** Asks before deleting a sender (it cannot be undone), then deletes it and says how it went. */
export function useConfirmSenderDeletion(onDeleted?: () => void) {
  const deletion = useDeleteSender();

  return useConfirmAction((sender: Pick<Sender, 'uuid' | 'sender'>) => ({
    title: 'Delete sender',
    message: (
      <>
        Delete the sender <strong>{sender.sender}</strong>? Templates and campaigns can no longer use it. This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete sender',
    onConfirm: () =>
      deletion.mutate(sender.uuid, {
        onSuccess: () => {
          notifySuccess(`The sender ${sender.sender} was deleted.`);
          onDeleted?.();
        },
        onError: (error) => notifyFailure(`The sender ${sender.sender} could not be deleted`, error),
      }),
  }));
}
