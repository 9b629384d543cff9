import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Webhook, WebhookWithSecret } from '../../api/gen/types.gen';
import { notifyFailure } from '../../lib/notify';
import { useRotateWebhookSecret } from './webhook-mutations';

/** Asks before rotating: the old secret stops signing at once, so the endpoint must be updated too. */
export function useConfirmSecretRotation(onRotated: (webhook: WebhookWithSecret) => void) {
  const rotation = useRotateWebhookSecret();

  return (webhook: Pick<Webhook, 'uuid' | 'name'>) =>
    modals.openConfirmModal({
      title: 'Rotate signing secret',
      children: (
        <Text size="sm">
          Make a new signing secret for <strong>{webhook.name}</strong>? Calls are signed with the new secret from now on,
          so update your endpoint with it.
        </Text>
      ),
      labels: { confirm: 'Rotate secret', cancel: 'Cancel' },
      confirmProps: { color: 'orange' },
      onConfirm: () =>
        rotation.mutate(webhook.uuid, {
          onSuccess: onRotated,
          onError: (error) => notifyFailure(`The secret of ${webhook.name} could not be rotated`, error),
        }),
    });
}
