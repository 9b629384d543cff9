import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContactGroupInput } from '../../../shared/contract';
import { addContacts, createContactGroup, deleteContactGroup, flushContactGroup, removeContacts, updateContactGroup } from '../../api/gen/sdk.gen';
import { contactGroupKeys } from './contact-group-queries';

export interface ContactInput {
  phone_number: string;
  custom_fields?: Record<string, string>;
}

export function useCreateContactGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ContactGroupInput) => (await createContactGroup({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactGroupKeys.all }),
  });
}

export function useUpdateContactGroup(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ContactGroupInput) =>
      (await updateContactGroup({ path: { contact_group_uuid: uuid }, body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactGroupKeys.all }),
  });
}

export function useDeleteContactGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteContactGroup({ path: { contact_group_uuid: uuid }, throwOnError: true });
    },
    onSuccess: (_result, uuid) => {
      queryClient.removeQueries({ queryKey: contactGroupKeys.detail(uuid) });
      return queryClient.invalidateQueries({ queryKey: contactGroupKeys.lists() });
    },
  });
}

export function useAddContacts(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (contacts: ContactInput[]) =>
      (await addContacts({ path: { contact_group_uuid: uuid }, body: { contacts }, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactGroupKeys.all }),
  });
}

/** `reason`: why numbers leave default_optouts (kept in the opt-out history and the audit log). */
export function useRemoveContacts(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ phoneNumbers, reason }: { phoneNumbers: string[]; reason?: string }) =>
      (await removeContacts({ path: { contact_group_uuid: uuid }, body: { phone_numbers: phoneNumbers, reason }, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactGroupKeys.all }),
  });
}

export function useFlushContactGroup(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (reason?: string) =>
      (await flushContactGroup({ path: { contact_group_uuid: uuid }, query: reason === undefined ? undefined : { reason }, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactGroupKeys.all }),
  });
}
