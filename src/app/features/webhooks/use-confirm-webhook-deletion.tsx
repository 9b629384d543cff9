import type { Webhook } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useDeleteWebhook } from './webhook-mutations';

/** Asks before deleting; the service refuses (409) while a keyword calls the webhook, and its message names them. */
export function useConfirmWebhookDeletion() {
  const deletion = useDeleteWebhook();

  return useConfirmedMutation(deletion, (webhook: Pick<Webhook, 'uuid' | 'name'>) => ({
    title: 'Delete webhook',
    message: (
      <>
        Delete the webhook <strong>{webhook.name}</strong>? This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete webhook',
    variables: webhook.uuid,
    success: `The webhook ${webhook.name} was deleted.`,
    failure: `The webhook ${webhook.name} could not be deleted`,
  }));
}
