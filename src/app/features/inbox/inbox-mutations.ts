import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createSavedReply, deleteSavedReply, replyToConversation, updateConversation, updateSavedReply } from '../../api/gen/sdk.gen';
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

/** Renames a saved reply (its text stays). */
export function useRenameSavedReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { uuid: string; name: string }) =>
      (await updateSavedReply({ path: { saved_reply_uuid: input.uuid }, body: { name: input.name }, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inboxKeys.savedReplies() }),
  });
}

export function useDeleteSavedReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => void (await deleteSavedReply({ path: { saved_reply_uuid: uuid }, throwOnError: true })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inboxKeys.savedReplies() }),
  });
}
