import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LinkInput } from '../../../shared/contract';
import { createLink, deleteLink, updateLink } from '../../api/gen/sdk.gen';
import { linkKeys } from './link-queries';

export function useCreateLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: LinkInput) => (await createLink({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: linkKeys.all }),
  });
}

export function useUpdateLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ uuid, input }: { uuid: string; input: LinkInput }) =>
      (await updateLink({ path: { link_uuid: uuid }, body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: linkKeys.all }),
  });
}

export function useDeleteLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteLink({ path: { link_uuid: uuid }, throwOnError: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: linkKeys.all }),
  });
}
