import type { Contact, ContactGroup } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useRemoveContacts } from './contact-group-mutations';
import { formatPhoneNumber } from './phone-number';

export function useConfirmContactRemoval(group: Pick<ContactGroup, 'uuid' | 'name'>) {
  const removal = useRemoveContacts(group.uuid);

  return useConfirmAction((contact: Pick<Contact, 'phone_number'>) => {
    const number = formatPhoneNumber(contact.phone_number);
    return {
      title: 'Remove contact',
      message: (
        <>
          Remove <strong>{number}</strong> from {group.name}?
        </>
      ),
      confirmLabel: 'Remove contact',
      onConfirm: () =>
        removal.mutate([contact.phone_number], {
          onSuccess: () => notifySuccess(`${number} was removed from ${group.name}.`),
          onError: (error) => notifyFailure(`${number} could not be removed`, error),
        }),
    };
  });
}
