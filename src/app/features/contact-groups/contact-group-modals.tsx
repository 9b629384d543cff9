import { Modal } from '@mantine/core';
import type { ContactGroup } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { ContactGroupForm } from './contact-group-form';
import { useCreateContactGroup, useUpdateContactGroup } from './contact-group-mutations';

interface ContactGroupCreateModalProps {
  opened: boolean;
  onClose: () => void;
  onCreated?: (group: ContactGroup) => void;
}

export function ContactGroupCreateModal({ opened, onClose, onCreated }: ContactGroupCreateModalProps) {
  const creation = useCreateContactGroup();
  return (
    <Modal opened={opened} onClose={onClose} title="New contact group" size="lg">
      <ContactGroupForm
        submitLabel="Create group"
        onCancel={onClose}
        onSubmit={(input) =>
          creation.mutateAsync(input, {
            onSuccess: (created) => {
              notifySuccess(`The contact group ${created.name} was created.`);
              onClose();
              onCreated?.(created);
            },
            onError: (error) => notifyFailure('The contact group could not be created', error),
          })
        }
      />
    </Modal>
  );
}

interface ContactGroupEditModalProps {
  group: ContactGroup;
  opened: boolean;
  onClose: () => void;
}

export function ContactGroupEditModal({ group, opened, onClose }: ContactGroupEditModalProps) {
  const update = useUpdateContactGroup(group.uuid);
  return (
    <Modal opened={opened} onClose={onClose} title="Edit contact group" size="lg">
      <ContactGroupForm
        key={group.updated_at}
        defaultValues={{ name: group.name, description: group.description, headers: group.headers }}
        submitLabel="Save changes"
        onCancel={onClose}
        onSubmit={(input) =>
          update.mutateAsync(input, {
            onSuccess: (saved) => {
              notifySuccess(`The contact group ${saved.name} was saved.`);
              onClose();
            },
            onError: (error) => notifyFailure('The contact group could not be saved', error),
          })
        }
      />
    </Modal>
  );
}
