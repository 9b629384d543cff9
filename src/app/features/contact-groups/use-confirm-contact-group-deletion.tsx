import type { ContactGroup } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useDeleteContactGroup } from './contact-group-mutations';
import { formatCount } from '../../lib/format';

/** Asks before deleting; the service refuses (409) while a keyword adds to the group, and its message says which. */
export function useConfirmContactGroupDeletion(onDeleted?: () => void) {
  const deletion = useDeleteContactGroup();

  return useConfirmedMutation(deletion, (group: Pick<ContactGroup, 'uuid' | 'name' | 'number_of_contacts'>) => ({
    title: 'Delete contact group',
    message: (
      <>
        Delete the group <strong>{group.name}</strong> and its {formatCount(group.number_of_contacts)} {group.number_of_contacts === 1 ? 'contact' : 'contacts'}
        ? This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete group',
    variables: group.uuid,
    success: `The contact group ${group.name} was deleted.`,
    onSuccess: () => onDeleted?.(),
    failure: `The contact group ${group.name} could not be deleted`,
  }));
}
