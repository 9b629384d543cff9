import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SenderInput } from '../../../shared/contract';
import { createSender, deleteSender, updateSender } from '../../api/gen/sdk.gen';
import { senderKeys } from './sender-queries';

export function useCreateSender() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SenderInput) => (await createSender({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: senderKeys.all }),
  });
}

export function useUpdateSender(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SenderInput) => (await updateSender({ path: { sender_uuid: uuid }, body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: senderKeys.all }),
  });
}

export function useDeleteSender() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteSender({ path: { sender_uuid: uuid }, throwOnError: true });
    },
    onSuccess: (_result, uuid) => {
      queryClient.removeQueries({ queryKey: senderKeys.detail(uuid) });
      return queryClient.invalidateQueries({ queryKey: senderKeys.lists() });
    },
  });
}
