import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TemplateInput } from '../../../shared/contract';
import { isApiError } from '../../api/api-error';
import { createTemplate, deleteTemplate, updateTemplate } from '../../api/gen/sdk.gen';
import { templateKeys } from './template-queries';

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: TemplateInput) => (await createTemplate({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}

export function useUpdateTemplate(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: TemplateInput) => (await updateTemplate({ path: { template_uuid: uuid }, body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
    // 423: a campaign started sending meanwhile; reloading shows the lock.
    onError: (error) => {
      if (isApiError(error) && error.status === 423) return queryClient.invalidateQueries({ queryKey: templateKeys.detail(uuid) });
    },
  });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteTemplate({ path: { template_uuid: uuid }, throwOnError: true });
    },
    onSuccess: (_result, uuid) => {
      queryClient.removeQueries({ queryKey: templateKeys.detail(uuid) });
      return queryClient.invalidateQueries({ queryKey: templateKeys.lists() });
    },
  });
}
