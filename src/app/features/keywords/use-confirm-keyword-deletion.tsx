import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Keyword } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteKeyword } from './keyword-mutations';

/** Asks before deleting a keyword: texts with it are no longer answered. */
export function useConfirmKeywordDeletion(onDeleted?: () => void) {
  const deletion = useDeleteKeyword();

  return (keyword: Pick<Keyword, 'uuid' | 'keyword'>) =>
    modals.openConfirmModal({
      title: 'Delete keyword',
      children: (
        <Text size="sm">
          Delete the keyword <strong>{keyword.keyword}</strong>? Messages with it will no longer be answered. This cannot be
          undone.
        </Text>
      ),
      labels: { confirm: 'Delete keyword', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        deletion.mutate(keyword.uuid, {
          onSuccess: () => {
            notifySuccess(`The keyword ${keyword.keyword} was deleted.`);
            onDeleted?.();
          },
          onError: (error) => notifyFailure(`The keyword ${keyword.keyword} could not be deleted`, error),
        }),
    });
}
