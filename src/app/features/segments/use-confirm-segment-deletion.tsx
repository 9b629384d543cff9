import type { Segment } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useDeleteSegment } from './segment-mutations';

/** Asks before deleting; the service refuses (409) while a campaign that has not started uses the segment, and its message says so. */
export function useConfirmSegmentDeletion(onDeleted?: () => void) {
  const deletion = useDeleteSegment();
  return useConfirmedMutation(deletion, (segment: Pick<Segment, 'uuid' | 'name'>) => ({
    title: 'Delete segment',
    message: (
      <>
        Delete the segment <strong>{segment.name}</strong>? Its contacts stay in their groups; campaigns that already started keep the recipients they had. This
        cannot be undone.
      </>
    ),
    confirmLabel: 'Delete segment',
    variables: segment.uuid,
    success: `The segment ${segment.name} was deleted.`,
    onSuccess: () => onDeleted?.(),
    failure: `The segment ${segment.name} could not be deleted`,
  }));
}
