import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Webhook } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteWebhook } from './webhook-mutations';

/** Asks before deleting; the service refuses (409) while a keyword calls the webhook, and its message names them. */
export function useConfirmWebhookDeletion() {
  const deletion = useDeleteWebhook();

  return (webhook: Pick<Webhook, 'uuid' | 'name'>) =>
    modals.openConfirmModal({
      title: 'Delete webhook',
      children: (
        <Text size="sm">
          Delete the webhook <strong>{webhook.name}</strong>? This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Delete webhook', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        deletion.mutate(webhook.uuid, {
          onSuccess: () => notifySuccess(`The webhook ${webhook.name} was deleted.`),
          onError: (error) => notifyFailure(`The webhook ${webhook.name} could not be deleted`, error),
        }),
    });
}
