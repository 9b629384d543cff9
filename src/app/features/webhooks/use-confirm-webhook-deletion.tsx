import type { Webhook } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteWebhook } from './webhook-mutations';

/** Asks before deleting; the service refuses (409) while a keyword calls the webhook, and its message names them. */
export function useConfirmWebhookDeletion() {
  const deletion = useDeleteWebhook();

  return useConfirmAction((webhook: Pick<Webhook, 'uuid' | 'name'>) => ({
    title: 'Delete webhook',
    message: (
      <>
        Delete the webhook <strong>{webhook.name}</strong>? This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete webhook',
    onConfirm: () =>
      deletion.mutate(webhook.uuid, {
        onSuccess: () => notifySuccess(`The webhook ${webhook.name} was deleted.`),
        onError: (error) => notifyFailure(`The webhook ${webhook.name} could not be deleted`, error),
      }),
  }));
}
