import type { Link } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteLink } from './link-mutations';

/** Asks before deleting: a `::NAME::` left in the message is then sent as a blank space. */
export function useConfirmLinkDeletion() {
  const deletion = useDeleteLink();

  return useConfirmAction((link: Pick<Link, 'uuid' | 'name'>) => ({
    title: 'Delete link',
    message: (
      <>
        Delete the link <strong>::{link.name}::</strong>? Where the message still uses it, a blank space is sent instead.
      </>
    ),
    confirmLabel: 'Delete link',
    onConfirm: () =>
      deletion.mutate(link.uuid, {
        onSuccess: () => notifySuccess(`The link ${link.name} was deleted.`),
        onError: (error) => notifyFailure(`The link ${link.name} could not be deleted`, error),
      }),
  }));
}
