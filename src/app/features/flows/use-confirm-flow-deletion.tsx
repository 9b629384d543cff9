import type { Flow } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useDeleteFlow } from './flow-mutations';

/** Asks before deleting: the flow and its runs go, messages already queued are still sent. */
export function useConfirmFlowDeletion(onDeleted?: () => void) {
  const deletion = useDeleteFlow();
  return useConfirmedMutation(deletion, (flow: Pick<Flow, 'uuid' | 'name'>) => ({
    title: 'Delete flow',
    message: (
      <>
        Delete the flow <strong>{flow.name}</strong>? Its runs end and their history goes; messages already queued are still sent. This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete flow',
    variables: flow.uuid,
    success: `The flow ${flow.name} was deleted.`,
    onSuccess: () => onDeleted?.(),
    failure: `The flow ${flow.name} could not be deleted`,
  }));
}
