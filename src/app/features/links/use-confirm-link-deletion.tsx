import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Link } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteLink } from './link-mutations';

/** Asks before deleting: a `::NAME::` left in the message is then sent as a blank space. */
export function useConfirmLinkDeletion() {
  const deletion = useDeleteLink();

  return (link: Pick<Link, 'uuid' | 'name'>) =>
    modals.openConfirmModal({
      title: 'Delete link',
      children: (
        <Text size="sm">
          Delete the link <strong>::{link.name}::</strong>? Where the message still uses it, a blank space is sent instead.
        </Text>
      ),
      labels: { confirm: 'Delete link', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        deletion.mutate(link.uuid, {
          onSuccess: () => notifySuccess(`The link ${link.name} was deleted.`),
          onError: (error) => notifyFailure(`The link ${link.name} could not be deleted`, error),
        }),
    });
}
