import type { Campaign } from '../../api/gen/types.gen';

/** A sentence to add to "created" or "saved" when the campaign now waits for an admin's approval. */
export function approvalNotice(campaign: Pick<Campaign, 'approval'>): string {
  return campaign.approval.status === 'pending' ? ' It waits for an admin’s approval before it can start.' : '';
}
