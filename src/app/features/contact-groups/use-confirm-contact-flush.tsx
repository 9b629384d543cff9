import type { ContactGroup } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useFlushContactGroup } from './contact-group-mutations';

function contactsCount(count: number): string {
  return `${count.toLocaleString('en-GB')} ${count === 1 ? 'contact' : 'contacts'}`;
}

/** Emptying a group cannot be undone, so the confirmation names the group and how many contacts go. */
export function useConfirmContactFlush(group: Pick<ContactGroup, 'uuid' | 'name' | 'number_of_contacts'>) {
  const flush = useFlushContactGroup(group.uuid);

  const confirm = useConfirmAction(() => ({
    title: 'Remove all contacts',
    message: (
      <>
        Remove all {contactsCount(group.number_of_contacts)} from <strong>{group.name}</strong>? The group stays, empty. This cannot be undone.
      </>
    ),
    confirmLabel: `Remove ${contactsCount(group.number_of_contacts)}`,
    cancelLabel: 'Keep them',
    onConfirm: () =>
      flush.mutate(undefined, {
        onSuccess: () => notifySuccess(`Every contact of ${group.name} was removed.`),
        onError: (error) => notifyFailure(`The contacts of ${group.name} could not be removed`, error),
      }),
  }));
  return () => confirm();
}
