import type { EventEndpoint, EventEndpointWithSecret } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useDeleteEventEndpoint, useRotateEventEndpointSecret } from './event-endpoint-mutations';

type Subject = Pick<EventEndpoint, 'uuid' | 'url'>;

/** Asks before rotating: the new secret signs from now on, the old one beside it for 24 hours. */
export function useConfirmEventEndpointSecretRotation(onRotated: (endpoint: EventEndpointWithSecret) => void) {
  const rotation = useRotateEventEndpointSecret();
  return useConfirmedMutation(rotation, (endpoint: Subject) => ({
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
    variables: endpoint.uuid,
    onSuccess: onRotated,
    failure: 'The signing secret could not be rotated',
  }));
}

/** Asks before deleting: the deliveries still pending are dropped with the endpoint. */
export function useConfirmEventEndpointDeletion(onDeleted: () => void) {
  const deletion = useDeleteEventEndpoint();
  return useConfirmedMutation(deletion, (endpoint: Subject) => ({
    title: 'Delete event endpoint',
    message: (
      <>
        Delete the event endpoint <strong style={{ overflowWrap: 'anywhere' }}>{endpoint.url}</strong>? Deliveries still on their way are dropped. This cannot
        be undone.
      </>
    ),
    confirmLabel: 'Delete endpoint',
    variables: endpoint.uuid,
    success: `The event endpoint ${endpoint.url} was deleted.`,
    onSuccess: () => onDeleted(),
    failure: 'The event endpoint could not be deleted',
  }));
}
