import { useMutation, useQueryClient } from '@tanstack/react-query';
import { receiveInboundMessage } from '../../api/gen/sdk.gen';

export interface KeywordTestInput {
  from: string;
  body: string;
}

/** Runs a message through the team's keywords as if it had arrived (the keyword tester). */
export function useTestKeyword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: KeywordTestInput) => (await receiveInboundMessage({ body: input, throwOnError: true })).data.data,
    // The actions really happen: groups gain contacts, webhooks log calls, the message is listed.
    // Every cached resource may have changed, so everything on screen is refetched.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
