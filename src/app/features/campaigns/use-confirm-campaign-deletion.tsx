import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Campaign } from '../../api/gen/types.gen';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useDeleteCampaign } from './campaign-mutations';

/** Asks before deleting; the service refuses (423) while the campaign is sending, and its sentence is the toast. */
export function useConfirmCampaignDeletion(onDeleted?: () => void) {
  const deletion = useDeleteCampaign();

  return (campaign: Pick<Campaign, 'uuid' | 'name'>) =>
    modals.openConfirmModal({
      title: 'Delete campaign',
      children: (
        <Text size="sm">
          Delete the campaign <strong>{campaign.name}</strong>? Its messages and reports go with it. This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Delete campaign', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        deletion.mutate(campaign.uuid, {
          onSuccess: () => {
            notifySuccess(`The campaign ${campaign.name} was deleted.`);
            onDeleted?.();
          },
          onError: (error) => notifyFailure(`The campaign ${campaign.name} could not be deleted`, error),
        }),
    });
}
