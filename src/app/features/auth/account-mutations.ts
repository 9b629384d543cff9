import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasswordChange, PasswordResetConfirm, PasswordResetRequest, ProfileInput } from '../../../shared/contract';
import { changePassword, confirmPasswordReset, requestPasswordReset, updateCurrentUser } from '../../api/gen/sdk.gen';
import { currentUserKeys } from './current-user-queries';

/** The signed-in user's name; the header's user menu shows the saved one at once. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ProfileInput) => (await updateCurrentUser({ body: input, throwOnError: true })).data.data,
    onSuccess: (user) => queryClient.setQueryData(currentUserKeys.me(), user),
  });
}

/** A new password, given the current one: the user's other dashboard sessions end (this one and API tokens stay). */
export function useChangePassword() {
  return useMutation({
    mutationFn: async (input: PasswordChange) => {
      await changePassword({ body: input, throwOnError: true });
    },
  });
}

/** "Forgot password": the service answers the same whether or not the address has an account. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: async (input: PasswordResetRequest) => {
      await requestPasswordReset({ body: input, throwOnError: true });
    },
  });
}

/** Sets a new password with the secret of an e-mailed link; every session of that account ends. */
export function useConfirmPasswordReset() {
  return useMutation({
    mutationFn: async (input: PasswordResetConfirm) => {
      await confirmPasswordReset({ body: input, throwOnError: true });
    },
  });
}
