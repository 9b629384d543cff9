import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createSavedReply, replyToConversation, updateConversation } from '../../api/gen/sdk.gen';
import { inboxKeys } from './inbox-queries';

export interface ConversationChange {
  status?: 'open' | 'closed' | 'snoozed';
  assignee_uuid?: string | null;
  snoozed_until?: string | null;
}

/** A one-off reply: the thread and the list show it (queued) at once. */
export function useReply(phoneNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: string) => (await replyToConversation({ path: { phone_number: phoneNumber }, body: { body }, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inboxKeys.all }),
  });
}

/** Assign, close, reopen or snooze. */
export function useUpdateConversation(phoneNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: ConversationChange) =>
      (await updateConversation({ path: { phone_number: phoneNumber }, body: change, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inboxKeys.all }),
  });
}

export function useCreateSavedReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { name: string; body: string }) => (await createSavedReply({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inboxKeys.savedReplies() }),
  });
}
