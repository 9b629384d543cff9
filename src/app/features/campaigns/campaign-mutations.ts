import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CampaignInput, SendTestInput, TestSendInput } from '../../../shared/contract';
import { sendCampaignTests } from './campaign-review-api';
import { isApiError } from '../../api/api-error';
import {
  approveCampaign,
  createCampaign,
  deleteCampaign,
  pickCampaignAbTestWinner,
  duplicateCampaign,
  resendUnreachedCampaign,
  rejectCampaign,
  sendTestCampaign,
  stopCampaign,
  toggleCampaignPaused,
  updateCampaign,
} from '../../api/gen/sdk.gen';
import { campaignKeys } from './campaign-queries';

/**
 * The new campaign page's save: creates the campaign, or saves again the one the page created
 * already (a draft saved from the review to send a test), so it is never created twice.
 */
export function useCreateOrUpdateCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ uuid, input }: { uuid: string | undefined; input: CampaignInput }) =>
      uuid
        ? (await updateCampaign({ path: { campaign_uuid: uuid }, body: input, throwOnError: true })).data.data
        : (await createCampaign({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}

export function useUpdateCampaign(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CampaignInput) => (await updateCampaign({ path: { campaign_uuid: uuid }, body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
    // 423: the send time passed or sending started meanwhile; reloading shows the lock.
    onError: (error) => {
      if (isApiError(error) && error.status === 423) return queryClient.invalidateQueries({ queryKey: campaignKeys.detail(uuid) });
    },
  });
}

export function useDeleteCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteCampaign({ path: { campaign_uuid: uuid }, throwOnError: true });
    },
    onSuccess: (_result, uuid) => {
      queryClient.removeQueries({ queryKey: campaignKeys.detail(uuid) });
      return queryClient.invalidateQueries({ queryKey: campaignKeys.lists() });
    },
  });
}

export function useToggleCampaignPaused(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await toggleCampaignPaused({ path: { campaign_uuid: uuid }, throwOnError: true })).data.data,
    onSuccess: (campaign) => {
      queryClient.setQueryData(campaignKeys.detail(uuid), campaign);
      return queryClient.invalidateQueries({ queryKey: campaignKeys.lists() });
    },
  });
}

/** Picks an A/B test's winner by hand, before it is decided: the rest of the audience gets it. */
export function usePickAbTestWinner(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variant: string) => (await pickCampaignAbTestWinner({ path: { campaign_uuid: uuid }, body: { variant }, throwOnError: true })).data.data,
    onSuccess: (campaign) => {
      queryClient.setQueryData(campaignKeys.detail(uuid), campaign);
      return queryClient.invalidateQueries({ queryKey: campaignKeys.all });
    },
  });
}

export type ApprovalVerdict = 'approve' | 'reject';

/** An admin's decision on a campaign waiting for approval, with an optional comment for the member who asked. */
export function useDecideCampaignApproval(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ verdict, comment }: { verdict: ApprovalVerdict; comment: string }) => {
      const decide = verdict === 'approve' ? approveCampaign : rejectCampaign;
      const body = comment.trim() ? { comment: comment.trim() } : {};
      return (await decide({ path: { campaign_uuid: uuid }, body, throwOnError: true })).data.data;
    },
    onSuccess: (campaign) => {
      queryClient.setQueryData(campaignKeys.detail(uuid), campaign);
      return queryClient.invalidateQueries({ queryKey: campaignKeys.lists() });
    },
    // 409: decided by another admin, edited or started meanwhile; reloading shows where it stands.
    onError: (error) => {
      if (isApiError(error) && error.status === 409) return queryClient.invalidateQueries({ queryKey: campaignKeys.detail(uuid) });
    },
  });
}

export function useSendTestCampaign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SendTestInput) => (await sendTestCampaign({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignKeys.lists() }),
  });
}

/** Stops a pending or sending campaign: nothing more is submitted; what is queued becomes unsent (`stopped`). */
export function useStopCampaign(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await stopCampaign({ path: { campaign_uuid: uuid }, throwOnError: true })).data.data,
    onSuccess: (campaign) => {
      queryClient.setQueryData(campaignKeys.detail(uuid), campaign);
      return queryClient.invalidateQueries({ queryKey: campaignKeys.all });
    },
    // 409: it finished or was stopped meanwhile; reloading shows where it stands.
    onError: (error) => {
      if (isApiError(error) && error.status === 409) return queryClient.invalidateQueries({ queryKey: campaignKeys.detail(uuid) });
    },
  });
}

/** Test sends of a saved campaign, now, to a few numbers (the caller's own by default); its review lists them. */
export function useSendCampaignTests(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TestSendInput) => sendCampaignTests(uuid, input),
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: campaignKeys.review(uuid) }), queryClient.invalidateQueries({ queryKey: campaignKeys.lists() })]),
  });
}

/** A draft copy of a campaign (`POST /campaigns/{uuid}/duplicate`), or a draft to those a stopped or expired one did not reach. */
export function useCopyCampaign(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (kind: 'duplicate' | 'unreached') =>
      kind === 'duplicate'
        ? (await duplicateCampaign({ path: { campaign_uuid: uuid }, throwOnError: true })).data.data
        : (await resendUnreachedCampaign({ path: { campaign_uuid: uuid }, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: campaignKeys.all }),
  });
}
