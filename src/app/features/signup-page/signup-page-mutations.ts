import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SignupPageInput } from '../../../shared/contract';
import { updateSignupPage } from '../../api/gen/sdk.gen';
import { signupPageKeys } from './signup-page-queries';

export function useSaveSignupPage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SignupPageInput) => (await updateSignupPage({ body: input, throwOnError: true })).data.data,
    onSuccess: (saved) => queryClient.setQueryData(signupPageKeys.all, saved),
  });
}
