import { Modal } from '@mantine/core';
import type { Webhook, WebhookWithSecret } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { webhookPatch } from './webhook-form-schema';
import { WebhookForm } from './webhook-form';
import { useCreateWebhook, useUpdateWebhook } from './webhook-mutations';

interface WebhookCreateModalProps {
  opened: boolean;
  onClose: () => void;
  /** Receives the new webhook with its signing secret (shown once). */
  onCreated: (webhook: WebhookWithSecret) => void;
}

export function WebhookCreateModal({ opened, onClose, onCreated }: WebhookCreateModalProps) {
  const creation = useCreateWebhook();
  return (
    <Modal opened={opened} onClose={onClose} title="New webhook" size="lg">
      <WebhookForm
        submitLabel="Create webhook"
        onCancel={onClose}
        onSubmit={(input) =>
          creation.mutateAsync(input, {
            onSuccess: (created) => {
              onCreated(created);
              onClose();
            },
            onError: (error) => notifyFailure('The webhook could not be created', error),
          })
        }
      />
    </Modal>
  );
}

interface WebhookEditModalProps {
  /** The webhook being edited; null when the modal is closed. */
  webhook: Webhook | null;
  onClose: () => void;
}

export function WebhookEditModal({ webhook, onClose }: WebhookEditModalProps) {
  const update = useUpdateWebhook();
  return (
    <Modal opened={webhook !== null} onClose={onClose} title="Edit webhook" size="lg">
      {webhook && (
        <WebhookForm
          key={webhook.uuid}
          defaultValues={webhook}
          submitLabel="Save changes"
          onCancel={onClose}
          onSubmit={(input) =>
            update.mutateAsync(
              { uuid: webhook.uuid, patch: webhookPatch(webhook, input) },
              {
                onSuccess: (saved) => {
                  notifySuccess(`The webhook ${saved.name} was saved.`);
                  onClose();
                },
                onError: (error) => notifyFailure('The webhook could not be saved', error),
              },
            )
          }
        />
      )}
    </Modal>
  );
}
