import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SmsConnectionInput, SmsConnectionPatch } from '../../../shared/contract';
import { createSmsConnection, deleteSmsConnection, testSmsConnection, updateSmsConnection } from '../../api/gen/sdk.gen';
import { smsConnectionKeys } from './sms-connection-queries';

export function useCreateSmsConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SmsConnectionInput) => (await createSmsConnection({ body: input, throwOnError: true })).data.data,
    onSuccess: (created) => {
      queryClient.setQueryData(smsConnectionKeys.detail(created.uuid), created);
      return queryClient.invalidateQueries({ queryKey: smsConnectionKeys.lists() });
    },
  });
}

/** A partial edit; the saved connection replaces the cached one. */
export function useUpdateSmsConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ uuid, patch }: { uuid: string; patch: SmsConnectionPatch }) =>
      (await updateSmsConnection({ path: { connection_uuid: uuid }, body: patch, throwOnError: true })).data.data,
    onSuccess: (saved) => {
      queryClient.setQueryData(smsConnectionKeys.detail(saved.uuid), saved);
      return queryClient.invalidateQueries({ queryKey: smsConnectionKeys.lists() });
    },
  });
}

export function useDeleteSmsConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteSmsConnection({ path: { connection_uuid: uuid }, throwOnError: true });
    },
    onSuccess: (_nothing, uuid) => {
      queryClient.removeQueries({ queryKey: smsConnectionKeys.detail(uuid) });
      return queryClient.invalidateQueries({ queryKey: smsConnectionKeys.lists() });
    },
  });
}

/** One test message through this connection only; the answer is the provider's message id. */
export function useTestSmsConnection(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (phoneNumber: string) =>
      (await testSmsConnection({ path: { connection_uuid: uuid }, body: { phone_number: phoneNumber }, throwOnError: true })).data.data,
    // Its page reads the state again (the router may have moved it meanwhile).
    onSettled: () => queryClient.invalidateQueries({ queryKey: smsConnectionKeys.detail(uuid) }),
  });
}
