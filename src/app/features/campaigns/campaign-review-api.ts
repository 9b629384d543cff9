import { createCampaignTestSends, previewCampaign, reviewCampaign } from '../../api/gen/sdk.gen';
import type { Campaign, CampaignReview, CreateCampaignTestSendsData, PreviewCampaignData } from '../../api/gen/types.gen';

/** What a saved campaign will do (GET /campaigns/{uuid}/review). */
export async function fetchCampaignReview(uuid: string, signal?: AbortSignal): Promise<CampaignReview> {
  const response = await reviewCampaign({ path: { campaign_uuid: uuid }, signal, throwOnError: true });
  return response.data.data;
}

/** What a campaign not saved yet would do (POST /campaigns/preview: nothing is written). */
export async function fetchCampaignPreview(input: PreviewCampaignData['body'], signal?: AbortSignal): Promise<CampaignReview> {
  const response = await previewCampaign({ body: input, signal, throwOnError: true });
  return response.data.data;
}

/** Tests of a campaign, sent now (POST /campaigns/{uuid}/test-sends): the test campaigns made. */
export async function sendCampaignTests(uuid: string, body: CreateCampaignTestSendsData['body']): Promise<Campaign[]> {
  const response = await createCampaignTestSends({ path: { campaign_uuid: uuid }, body, throwOnError: true });
  return response.data.data;
}
