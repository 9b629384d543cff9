import { modals } from '@mantine/modals';
import { OPTOUTS_GROUP } from '../../../shared/contract';
import type { Contact, ContactGroup } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { notifySuccess } from '../../lib/notify';
import { useRemoveContacts } from './contact-group-mutations';
import { OptOutRemovalForm } from './opt-out-removal-form';
import { formatPhoneNumber } from '../../lib/phone-number';

/**
 * Asks before a contact leaves a group. Leaving default_optouts opts the number back in, so that
 * dialog asks for a reason (kept in the opt-out history and the audit log) and sends nothing without one.
 */
export function useConfirmContactRemoval(group: Pick<ContactGroup, 'uuid' | 'name'>) {
  const removal = useRemoveContacts(group.uuid);

  const confirm = useConfirmedMutation(removal, (contact: Pick<Contact, 'phone_number'>) => {
    const number = formatPhoneNumber(contact.phone_number);
    return {
      title: 'Remove contact',
      message: (
        <>
          Remove <strong>{number}</strong> from {group.name}?
        </>
      ),
      confirmLabel: 'Remove contact',
      variables: { phoneNumbers: [contact.phone_number] },
      success: `${number} was removed from ${group.name}.`,
      failure: `${number} could not be removed`,
    };
  });

  const askReason = (contact: Pick<Contact, 'phone_number'>) => {
    const number = formatPhoneNumber(contact.phone_number);
    const modalId = modals.open({
      title: 'Remove opt-out',
      children: (
        <OptOutRemovalForm
          message={
            <>
              Take <strong>{number}</strong> out of {OPTOUTS_GROUP}? Campaigns will reach it again. Only do this when the person asked for it.
            </>
          }
          submitLabel="Remove opt-out"
          onCancel={() => modals.close(modalId)}
          onSubmit={(reason) =>
            removal.mutateAsync(
              { phoneNumbers: [contact.phone_number], reason },
              {
                onSuccess: () => {
                  notifySuccess(`${number} was removed from ${OPTOUTS_GROUP}.`);
                  modals.close(modalId);
                },
              },
            )
          }
        />
      ),
    });
  };

  return group.name === OPTOUTS_GROUP ? askReason : confirm;
}
