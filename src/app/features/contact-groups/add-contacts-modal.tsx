import { Modal } from '@mantine/core';
import type { ContactGroup } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { AddContactsForm } from './add-contacts-form';
import { useAddContacts } from './contact-group-mutations';

interface AddContactsModalProps {
  group: ContactGroup;
  opened: boolean;
  onClose: () => void;
}

export function AddContactsModal({ group, opened, onClose }: AddContactsModalProps) {
  const addition = useAddContacts(group.uuid);
  return (
    <Modal opened={opened} onClose={onClose} title={`Add contacts to ${group.name}`} size={group.headers.length > 1 ? 'xl' : 'lg'}>
      <AddContactsForm
        headers={group.headers}
        onCancel={onClose}
        onSubmit={(contacts) =>
          addition.mutateAsync(contacts, {
            onSuccess: () => {
              notifySuccess(`${contacts.length} ${contacts.length === 1 ? 'contact was' : 'contacts were'} added to ${group.name}.`);
              onClose();
            },
            onError: (error) => notifyFailure('The contacts could not be added', error),
          })
        }
      />
    </Modal>
  );
}
