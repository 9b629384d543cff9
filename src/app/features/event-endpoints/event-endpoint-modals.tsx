import { Modal } from '@mantine/core';
import type { EventEndpoint, EventEndpointWithSecret } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { EventEndpointForm } from './event-endpoint-form';
import { eventEndpointPatch } from './event-endpoint-form-schema';
import { useCreateEventEndpoint, useUpdateEventEndpoint } from './event-endpoint-mutations';

interface EventEndpointCreateModalProps {
  opened: boolean;
  onClose: () => void;
  /** Receives the new endpoint with its signing secret (shown once). */
  onCreated: (endpoint: EventEndpointWithSecret) => void;
}

export function EventEndpointCreateModal({ opened, onClose, onCreated }: EventEndpointCreateModalProps) {
  const creation = useCreateEventEndpoint();
  return (
    <Modal opened={opened} onClose={onClose} title="New event endpoint" size="xl">
      <EventEndpointForm
        submitLabel="Create endpoint"
        onCancel={onClose}
        onSubmit={(settings) =>
          creation.mutateAsync(
            { ...settings, enabled: true },
            {
              onSuccess: (created) => {
                onCreated(created);
                onClose();
              },
              onError: (error) => notifyFailure('The event endpoint could not be created', error),
            },
          )
        }
      />
    </Modal>
  );
}

interface EventEndpointEditModalProps {
  endpoint: EventEndpoint;
  opened: boolean;
  onClose: () => void;
}

export function EventEndpointEditModal({ endpoint, opened, onClose }: EventEndpointEditModalProps) {
  const update = useUpdateEventEndpoint();
  return (
    <Modal opened={opened} onClose={onClose} title="Edit event endpoint" size="xl">
      <EventEndpointForm
        key={endpoint.updated_at}
        defaultValues={endpoint}
        submitLabel="Save changes"
        onCancel={onClose}
        onSubmit={(settings) =>
          update.mutateAsync(
            { uuid: endpoint.uuid, patch: eventEndpointPatch(endpoint, settings) },
            {
              onSuccess: () => {
                notifySuccess('The event endpoint was saved.');
                onClose();
              },
              onError: (error) => notifyFailure('The event endpoint could not be saved', error),
            },
          )
        }
      />
    </Modal>
  );
}
