import { modals } from '@mantine/modals';
import { OPTOUTS_GROUP } from '../../../shared/contract';
import type { ContactGroup } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { notifySuccess } from '../../lib/notify';
import { useFlushContactGroup } from './contact-group-mutations';
import { OptOutRemovalForm } from './opt-out-removal-form';
import { formatCount } from '../../lib/format';

function contactsCount(count: number): string {
  return `${formatCount(count)} ${count === 1 ? 'contact' : 'contacts'}`;
}

/**
 * Emptying a group cannot be undone, so the confirmation names the group and how many contacts go.
 * Emptying default_optouts opts every number back in: that dialog asks for a reason too.
 */
export function useConfirmContactFlush(group: Pick<ContactGroup, 'uuid' | 'name' | 'number_of_contacts'>) {
  const flush = useFlushContactGroup(group.uuid);

  const confirm = useConfirmedMutation(flush, () => ({
    title: 'Remove all contacts',
    message: (
      <>
        Remove all {contactsCount(group.number_of_contacts)} from <strong>{group.name}</strong>? The group stays, empty. This cannot be undone.
      </>
    ),
    confirmLabel: `Remove ${contactsCount(group.number_of_contacts)}`,
    cancelLabel: 'Keep them',
    variables: undefined,
    success: `Every contact of ${group.name} was removed.`,
    failure: `The contacts of ${group.name} could not be removed`,
  }));

  const askReason = () => {
    const modalId = modals.open({
      title: 'Remove all opt-outs',
      children: (
        <OptOutRemovalForm
          message={
            <>
              Take all {contactsCount(group.number_of_contacts)} out of <strong>{OPTOUTS_GROUP}</strong>? Campaigns will reach every one of them again.
            </>
          }
          submitLabel={`Remove ${contactsCount(group.number_of_contacts)}`}
          onCancel={() => modals.close(modalId)}
          onSubmit={(reason) =>
            flush.mutateAsync(reason, {
              onSuccess: () => {
                notifySuccess(`Every number of ${OPTOUTS_GROUP} was removed.`);
                modals.close(modalId);
              },
            })
          }
        />
      ),
    });
  };

  return () => (group.name === OPTOUTS_GROUP ? askReason() : confirm());
}
