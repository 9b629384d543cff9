import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookInput, WebhookPatch } from '../../../shared/contract';
import { createWebhook, deleteWebhook, rotateWebhookSecret, testWebhook, updateWebhook } from '../../api/gen/sdk.gen';
import { webhookKeys } from './webhook-queries';

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: WebhookInput) => (await createWebhook({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ uuid, patch }: { uuid: string; patch: WebhookPatch }) =>
      (await updateWebhook({ path: { webhook_uuid: uuid }, body: patch, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => (await rotateWebhookSecret({ path: { webhook_uuid: uuid }, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteWebhook({ path: { webhook_uuid: uuid }, throwOnError: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  });
}

/** Sends one signed `webhook.test` call; the answer is the logged attempt, so the log is refreshed. */
export function useTestWebhook(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await testWebhook({ path: { webhook_uuid: uuid }, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.attempts(uuid) }),
  });
}
