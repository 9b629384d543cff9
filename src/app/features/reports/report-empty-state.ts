import type { ReportType } from '../../../shared/contract';
import type { Campaign } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';

export type ReportCampaign = Pick<Campaign, 'status' | 'scheduled_send_date' | 'expiry_date'>;

export interface EmptyReason {
  title: string;
  description: string;
}

/** Why a report has no rows, from where the campaign is in its life (the reports read its messages). */
export function emptyReason(type: ReportType, campaign: ReportCampaign): EmptyReason {
  if (campaign.status === 0) {
    return {
      title: 'No rows yet: the campaign has not started sending.',
      description: `Its messages are made at its send time (${formatTimestamp(campaign.scheduled_send_date)}); the reports fill from then on.`,
    };
  }
  const finished = campaign.status === 2;
  switch (type) {
    case 'unsent':
      return finished
        ? { title: 'Nothing unsent.', description: 'Every message was handed to the gateway before the campaign expired.' }
        : {
            title: 'Nothing unsent so far.',
            description: `Messages still waiting to be sent when the campaign expires (${formatTimestamp(campaign.expiry_date)}) are listed here.`,
          };
    case 'clicks':
      return { title: 'No clicks yet.', description: 'Each click on a tracked link of the message is listed here, with the device it came from.' };
    case 'sent':
      return { title: 'Nothing sent yet.', description: 'The send is listed here once the gateway has taken its first message.' };
    default:
      return {
        title: 'No messages: nobody was left to send to.',
        description: 'The included groups had no numbers once the excluded groups and opted-out numbers were taken away.',
      };
  }
}
