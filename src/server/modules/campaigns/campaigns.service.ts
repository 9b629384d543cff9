import type { ApprovalDecision, CampaignInput, SendTestInput, TestSendInput } from '../../../shared/contract';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { decideCampaign } from './approvals';
import { presentCampaign, type CampaignsDeps } from './campaign-records';
import type { CampaignRecord } from './campaigns.repository';
import {
  createCampaign,
  deleteCampaign,
  listCampaigns,
  pickAbWinner,
  type CampaignListQuery,
  showCampaign,
  stopCampaign,
  toggleCampaignPaused,
  updateCampaign,
} from './editing';
import { duplicateCampaign, resendUnreached } from './copies';
import { createCampaignReview } from './review';
import { audienceSegments, campaignSummary, previewCampaign, reviewCampaign } from './reviewing';
import { sendCampaignTests, sendTestCampaign } from './test-sends';

/**
 * The campaigns service the routes call: a thin composition of the module's jobs, each in its own
 * file with the dependencies it uses: editing.ts (list, show, create, edit, delete, stop, pause),
 * approvals.ts (asking for and deciding approvals), test-sends.ts, reviewing.ts (the review,
 * the preview and the summary) and copies.ts (a duplicate, and a draft to those not reached). A campaign's states and transitions are lifecycle.ts's.
 */
export function createCampaignsService(deps: Omit<CampaignsDeps, 'reviewer'>) {
  const all: CampaignsDeps = {
    ...deps,
    reviewer: createCampaignReview({
      review: deps.review,
      linkSamples: deps.linkSamples,
      now: () => deps.clock.now(),
      config: deps.config,
      routing: deps.routing,
    }),
  };
  return {
    present: (record: CampaignRecord) => presentCampaign(all, record),
    list: (auth: AuthContext, window: PageWindow, filters: CampaignListQuery = {}) => listCampaigns(all, auth, window, filters),
    show: (auth: AuthContext, uuid: string) => showCampaign(all, auth, uuid),
    create: (auth: AuthContext, input: CampaignInput) => createCampaign(all, auth, input),
    update: (auth: AuthContext, uuid: string, input: CampaignInput) => updateCampaign(all, auth, uuid, input),
    decide: (auth: AuthContext, uuid: string, status: 'approved' | 'rejected', input: ApprovalDecision) => decideCampaign(all, auth, uuid, status, input),
    delete: (auth: AuthContext, uuid: string) => deleteCampaign(all, auth, uuid),
    stop: (auth: AuthContext, uuid: string) => stopCampaign(all, auth, uuid),
    togglePaused: (auth: AuthContext, uuid: string) => toggleCampaignPaused(all, auth, uuid),
    pickAbWinner: (auth: AuthContext, uuid: string, variant: string) => pickAbWinner(all, auth, uuid, variant),
    duplicate: (auth: AuthContext, uuid: string) => duplicateCampaign(all, auth, uuid),
    resendUnreached: (auth: AuthContext, uuid: string) => resendUnreached(all, auth, uuid),
    sendTest: (auth: AuthContext, input: SendTestInput) => sendTestCampaign(all, auth, input),
    testSends: (auth: AuthContext, uuid: string, input: TestSendInput) => sendCampaignTests(all, auth, uuid, input),
    audienceSegments: (auth: AuthContext, body: string, links: Record<string, string>, groupUuids: string[]) =>
      audienceSegments(all, auth, body, links, groupUuids),
    review: (auth: AuthContext, uuid: string) => reviewCampaign(all, auth, uuid),
    preview: (auth: AuthContext, input: CampaignInput) => previewCampaign(all, auth, input),
    summary: (auth: AuthContext, uuid: string) => campaignSummary(all, auth, uuid),
  };
}
export type CampaignsService = ReturnType<typeof createCampaignsService>;
