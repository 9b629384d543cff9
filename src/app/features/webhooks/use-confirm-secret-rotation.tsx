import type { Webhook, WebhookWithSecret } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure } from '../../lib/notify';
import { useRotateWebhookSecret } from './webhook-mutations';

/** Asks before rotating: the old secret stops signing at once, so the endpoint must be updated too. */
export function useConfirmSecretRotation(onRotated: (webhook: WebhookWithSecret) => void) {
  const rotation = useRotateWebhookSecret();

  return useConfirmAction((webhook: Pick<Webhook, 'uuid' | 'name'>) => ({
    title: 'Rotate signing secret',
    message: (
      <>
        Make a new signing secret for <strong>{webhook.name}</strong>? Calls are signed with the new secret from now on, so update your endpoint with it.
      </>
    ),
    confirmLabel: 'Rotate secret',
    cancelLabel: 'Cancel',
    color: 'orange',
    onConfirm: () =>
      rotation.mutate(webhook.uuid, {
        onSuccess: onRotated,
        onError: (error) => notifyFailure(`The secret of ${webhook.name} could not be rotated`, error),
      }),
  }));
}
