import type { Keyword } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useDeleteKeyword } from './keyword-mutations';

/** Asks before deleting a keyword: texts with it are no longer answered. */
export function useConfirmKeywordDeletion(onDeleted?: () => void) {
  const deletion = useDeleteKeyword();

  return useConfirmedMutation(deletion, (keyword: Pick<Keyword, 'uuid' | 'keyword'>) => ({
    title: 'Delete keyword',
    message: (
      <>
        Delete the keyword <strong>{keyword.keyword}</strong>? Messages with it will no longer be answered. This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete keyword',
    variables: keyword.uuid,
    success: `The keyword ${keyword.keyword} was deleted.`,
    onSuccess: () => onDeleted?.(),
    failure: `The keyword ${keyword.keyword} could not be deleted`,
  }));
}
