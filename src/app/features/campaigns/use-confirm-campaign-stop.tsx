import type { Campaign } from '../../api/gen/types.gen';
import { useConfirmedMutation } from '../../components/use-confirm-action';
import { useStopCampaign } from './campaign-mutations';

/** Asks before stopping, saying what a stop does and what it keeps; the service's sentence is the toast when it refuses (409). */
export function useConfirmCampaignStop(uuid: string) {
  const stop = useStopCampaign(uuid);

  const confirm = useConfirmedMutation(stop, (campaign: Pick<Campaign, 'name' | 'status'>) => ({
    title: 'Stop sending',
    message: (
      <>
        Stop <strong>{campaign.name}</strong>? Nothing more is sent from now on
        {campaign.status === 1 ? ': messages still queued are recorded as unsent with the reason “stopped”' : ': it will not start'}. What was already sent
        stays sent, and the reports stay. A stopped campaign cannot be started again.
      </>
    ),
    confirmLabel: 'Stop sending',
    cancelLabel: 'Keep sending',
    variables: undefined,
    success: (stopped) => `${stopped.name} is stopped: nothing more is sent.`,
    failure: `${campaign.name} could not be stopped`,
  }));
  return { confirm, stopping: stop.isPending };
}
