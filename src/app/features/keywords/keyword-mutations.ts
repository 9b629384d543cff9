import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { KeywordInput } from '../../../shared/contract';
import { createKeyword, deleteKeyword, updateKeyword } from '../../api/gen/sdk.gen';
import { keywordKeys } from './keyword-queries';

export function useCreateKeyword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: KeywordInput) => (await createKeyword({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keywordKeys.all }),
  });
}

export function useUpdateKeyword(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: KeywordInput) => (await updateKeyword({ path: { keyword_uuid: uuid }, body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keywordKeys.all }),
  });
}

export function useDeleteKeyword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteKeyword({ path: { keyword_uuid: uuid }, throwOnError: true });
    },
    onSuccess: (_result, uuid) => {
      queryClient.removeQueries({ queryKey: keywordKeys.detail(uuid) });
      return queryClient.invalidateQueries({ queryKey: keywordKeys.lists() });
    },
  });
}
