import type { EventEndpoint, EventEndpointWithSecret } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteEventEndpoint, useRotateEventEndpointSecret } from './event-endpoint-mutations';

type Subject = Pick<EventEndpoint, 'uuid' | 'url'>;

/** Asks before rotating: the new secret signs from now on, the old one beside it for 24 hours. */
export function useConfirmEventEndpointSecretRotation(onRotated: (endpoint: EventEndpointWithSecret) => void) {
  const rotation = useRotateEventEndpointSecret();
  return useConfirmAction((endpoint: Subject) => ({
    title: 'Rotate signing secret',
    message: (
      <>
        Make a new signing secret for <strong style={{ overflowWrap: 'anywhere' }}>{endpoint.url}</strong>? Calls are signed with the new secret from now on,
        and for 24 hours with the old one too, so your endpoint can switch without losing a call.
      </>
    ),
    confirmLabel: 'Rotate secret',
    cancelLabel: 'Cancel',
    color: 'orange',
    onConfirm: () =>
      rotation.mutate(endpoint.uuid, {
        onSuccess: onRotated,
        onError: (error) => notifyFailure('The signing secret could not be rotated', error),
      }),
  }));
}

/** Asks before deleting: the deliveries still pending are dropped with the endpoint. */
export function useConfirmEventEndpointDeletion(onDeleted: () => void) {
  const deletion = useDeleteEventEndpoint();
  return useConfirmAction((endpoint: Subject) => ({
    title: 'Delete event endpoint',
    message: (
      <>
        Delete the event endpoint <strong style={{ overflowWrap: 'anywhere' }}>{endpoint.url}</strong>? Deliveries still on their way are dropped. This cannot
        be undone.
      </>
    ),
    confirmLabel: 'Delete endpoint',
    onConfirm: () =>
      deletion.mutate(endpoint.uuid, {
        onSuccess: () => {
          notifySuccess(`The event endpoint ${endpoint.url} was deleted.`);
          onDeleted();
        },
        onError: (error) => notifyFailure('The event endpoint could not be deleted', error),
      }),
  }));
}
