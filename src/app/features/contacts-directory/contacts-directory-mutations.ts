import { useMutation, useQueryClient } from '@tanstack/react-query';
import { eraseContact } from '../../api/gen/sdk.gen';
import { contactsDirectoryKeys } from './contacts-directory-queries';

/** Erases a number from the team (admins only); the service answers 409 while something is still to be sent to it. */
export function useEraseContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (phoneNumber: string) => (await eraseContact({ path: { phone_number: phoneNumber }, throwOnError: true })).data.data,
    onSuccess: (_erasure, phoneNumber) => {
      queryClient.removeQueries({ queryKey: contactsDirectoryKeys.detail(phoneNumber) });
      // The number leaves its groups (their counts and contacts) and a token replaces it in messages,
      // clicks, inbound messages and reports: every cached resource may have changed.
      return queryClient.invalidateQueries();
    },
  });
}
