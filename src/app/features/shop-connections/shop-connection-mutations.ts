import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ShopConnectionInput } from '../../../shared/contract';
import { createShopConnection, deleteShopConnection } from '../../api/gen/sdk.gen';
import { shopConnectionKeys } from './shop-connection-queries';

export function useCreateShopConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ShopConnectionInput) => (await createShopConnection({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shopConnectionKeys.lists() }),
  });
}

export function useDeleteShopConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteShopConnection({ path: { shop_connection_uuid: uuid }, throwOnError: true });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shopConnectionKeys.lists() }),
  });
}
