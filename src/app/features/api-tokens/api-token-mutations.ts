import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiTokenInput } from '../../../shared/contract';
import { createToken, revokeToken } from '../../api/gen/sdk.gen';
import { apiTokenKeys } from './api-token-queries';

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ApiTokenInput) => (await createToken({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await revokeToken({ path: { token_uuid: uuid }, throwOnError: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}
