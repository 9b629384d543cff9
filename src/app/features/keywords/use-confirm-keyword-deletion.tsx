import type { Keyword } from '../../api/gen/types.gen';
import { useConfirmAction } from '../../components/use-confirm-action';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteKeyword } from './keyword-mutations';

/** Asks before deleting a keyword: texts with it are no longer answered. */
export function useConfirmKeywordDeletion(onDeleted?: () => void) {
  const deletion = useDeleteKeyword();

  return useConfirmAction((keyword: Pick<Keyword, 'uuid' | 'keyword'>) => ({
    title: 'Delete keyword',
    message: (
      <>
        Delete the keyword <strong>{keyword.keyword}</strong>? Messages with it will no longer be answered. This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete keyword',
    onConfirm: () =>
      deletion.mutate(keyword.uuid, {
        onSuccess: () => {
          notifySuccess(`The keyword ${keyword.keyword} was deleted.`);
          onDeleted?.();
        },
        onError: (error) => notifyFailure(`The keyword ${keyword.keyword} could not be deleted`, error),
      }),
  }));
}
