import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ContactGroup } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useFlushContactGroup } from './contact-group-mutations';

function contactsCount(count: number): string {
  return `${count.toLocaleString('en-GB')} ${count === 1 ? 'contact' : 'contacts'}`;
}

/** Emptying a group cannot be undone, so the confirmation names the group and how many contacts go. */
export function useConfirmContactFlush(group: Pick<ContactGroup, 'uuid' | 'name' | 'number_of_contacts'>) {
  const flush = useFlushContactGroup(group.uuid);

  return () =>
    modals.openConfirmModal({
      title: 'Remove all contacts',
      children: (
        <Text size="sm">
          Remove all {contactsCount(group.number_of_contacts)} from <strong>{group.name}</strong>? The group stays, empty. This
          cannot be undone.
        </Text>
      ),
      labels: { confirm: `Remove ${contactsCount(group.number_of_contacts)}`, cancel: 'Keep them' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        flush.mutate(undefined, {
          onSuccess: () => notifySuccess(`Every contact of ${group.name} was removed.`),
          onError: (error) => notifyFailure(`The contacts of ${group.name} could not be removed`, error),
        }),
    });
}
