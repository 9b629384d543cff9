import { Modal } from '@mantine/core';
import type { SmsConnection } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { SmsConnectionForm } from './sms-connection-form';
import { smsConnectionPatch, toSmsConnectionInput } from './sms-connection-form-schema';
import { useCreateSmsConnection, useUpdateSmsConnection } from './sms-connection-mutations';

interface SmsConnectionCreateModalProps {
  opened: boolean;
  onClose: () => void;
  onCreated: (connection: SmsConnection) => void;
}

export function SmsConnectionCreateModal({ opened, onClose, onCreated }: SmsConnectionCreateModalProps) {
  const creation = useCreateSmsConnection();
  return (
    <Modal opened={opened} onClose={onClose} title="Add a connection" size="xl">
      <SmsConnectionForm
        submitLabel="Add connection"
        onCancel={onClose}
        onSubmit={(values) =>
          creation.mutateAsync(toSmsConnectionInput(values), {
            onSuccess: (created) => {
              notifySuccess(`The connection ${created.name} was added.`);
              onCreated(created);
              onClose();
            },
            onError: (error) => notifyFailure('The connection could not be added', error),
          })
        }
      />
    </Modal>
  );
}

interface SmsConnectionEditModalProps {
  connection: SmsConnection;
  opened: boolean;
  onClose: () => void;
}

export function SmsConnectionEditModal({ connection, opened, onClose }: SmsConnectionEditModalProps) {
  const update = useUpdateSmsConnection();
  return (
    <Modal opened={opened} onClose={onClose} title="Edit connection" size="xl">
      <SmsConnectionForm
        key={connection.updated_at}
        connection={connection}
        submitLabel="Save changes"
        onCancel={onClose}
        onSubmit={(values) =>
          update.mutateAsync(
            { uuid: connection.uuid, patch: smsConnectionPatch(connection, values) },
            {
              onSuccess: () => {
                notifySuccess('The connection was saved.');
                onClose();
              },
              onError: (error) => notifyFailure('The connection could not be saved', error),
            },
          )
        }
      />
    </Modal>
  );
}
