import type { Link } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useDeleteLink } from './link-mutations';

/** Asks before deleting: a `::NAME::` left in the message is then sent as a blank space. */
export function useConfirmLinkDeletion() {
  const deletion = useDeleteLink();

  return useConfirmedMutation(deletion, (link: Pick<Link, 'uuid' | 'name'>) => ({
    title: 'Delete link',
    message: (
      <>
        Delete the link <strong>::{link.name}::</strong>? Where the message still uses it, a blank space is sent instead.
      </>
    ),
    confirmLabel: 'Delete link',
    variables: link.uuid,
    success: `The link ${link.name} was deleted.`,
    failure: `The link ${link.name} could not be deleted`,
  }));
}
