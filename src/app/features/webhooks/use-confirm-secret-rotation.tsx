import type { Webhook, WebhookWithSecret } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useRotateWebhookSecret } from './webhook-mutations';

/** Asks before rotating: the old secret stops signing at once, so the endpoint must be updated too. */
export function useConfirmSecretRotation(onRotated: (webhook: WebhookWithSecret) => void) {
  const rotation = useRotateWebhookSecret();

  return useConfirmedMutation(rotation, (webhook: Pick<Webhook, 'uuid' | 'name'>) => ({
    title: 'Rotate signing secret',
    message: (
      <>
        Make a new signing secret for <strong>{webhook.name}</strong>? Calls are signed with the new secret from now on, so update your endpoint with it.
      </>
    ),
    confirmLabel: 'Rotate secret',
    cancelLabel: 'Cancel',
    color: 'orange',
    variables: webhook.uuid,
    onSuccess: onRotated,
    failure: `The secret of ${webhook.name} could not be rotated`,
  }));
}
