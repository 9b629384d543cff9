import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VanityDomainInput } from '../../../shared/contract';
import { createVanityDomain, deleteVanityDomain, updateVanityDomain } from '../../api/gen/sdk.gen';
import { vanityDomainKeys } from './vanity-domain-queries';

export function useCreateVanityDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: VanityDomainInput) => (await createVanityDomain({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: vanityDomainKeys.all }),
  });
}

export function useUpdateVanityDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ uuid, input }: { uuid: string; input: VanityDomainInput }) =>
      (await updateVanityDomain({ path: { vanity_domain_uuid: uuid }, body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: vanityDomainKeys.all }),
  });
}

export function useDeleteVanityDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteVanityDomain({ path: { vanity_domain_uuid: uuid }, throwOnError: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: vanityDomainKeys.all }),
  });
}
