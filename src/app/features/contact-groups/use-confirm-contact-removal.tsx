import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Contact, ContactGroup } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useRemoveContacts } from './contact-group-mutations';
import { formatPhoneNumber } from './phone-number';

export function useConfirmContactRemoval(group: Pick<ContactGroup, 'uuid' | 'name'>) {
  const removal = useRemoveContacts(group.uuid);

  return (contact: Pick<Contact, 'phone_number'>) => {
    const number = formatPhoneNumber(contact.phone_number);
    modals.openConfirmModal({
      title: 'Remove contact',
      children: (
        <Text size="sm">
          Remove <strong>{number}</strong> from {group.name}?
        </Text>
      ),
      labels: { confirm: 'Remove contact', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        removal.mutate([contact.phone_number], {
          onSuccess: () => notifySuccess(`${number} was removed from ${group.name}.`),
          onError: (error) => notifyFailure(`${number} could not be removed`, error),
        }),
    });
  };
}
