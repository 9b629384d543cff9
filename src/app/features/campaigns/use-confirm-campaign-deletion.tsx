import type { Campaign } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useDeleteCampaign } from './campaign-mutations';

/** Asks before deleting; the service refuses (423) while the campaign is sending, and its sentence is the toast. */
export function useConfirmCampaignDeletion(onDeleted?: () => void) {
  const deletion = useDeleteCampaign();

  return useConfirmedMutation(deletion, (campaign: Pick<Campaign, 'uuid' | 'name'>) => ({
    title: 'Delete campaign',
    message: (
      <>
        Delete the campaign <strong>{campaign.name}</strong>? Its messages and reports go with it. This cannot be undone.
      </>
    ),
    confirmLabel: 'Delete campaign',
    variables: campaign.uuid,
    success: `The campaign ${campaign.name} was deleted.`,
    onSuccess: () => onDeleted?.(),
    failure: `The campaign ${campaign.name} could not be deleted`,
  }));
}
