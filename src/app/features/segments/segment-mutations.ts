import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SegmentInput } from '../../../shared/contract/segments';
import { createSegment, deleteSegment, updateSegment } from '../../api/gen/sdk.gen';
import { segmentKeys } from './segment-queries';

export function useCreateSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SegmentInput) => (await createSegment({ body: input, throwOnError: true })).data.data,
    onSuccess: (saved) => {
      queryClient.setQueryData(segmentKeys.detail(saved.uuid), saved);
      return queryClient.invalidateQueries({ queryKey: segmentKeys.lists() });
    },
  });
}

/** The whole segment replaced; its count and contacts are read again (they follow the new conditions). */
export function useUpdateSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ uuid, input }: { uuid: string; input: SegmentInput }) =>
      (await updateSegment({ path: { segment_uuid: uuid }, body: input, throwOnError: true })).data.data,
    onSuccess: (saved) => {
      queryClient.setQueryData(segmentKeys.detail(saved.uuid), saved);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: segmentKeys.count(saved.uuid) }),
        queryClient.invalidateQueries({ queryKey: segmentKeys.contacts(saved.uuid) }),
        queryClient.invalidateQueries({ queryKey: segmentKeys.lists() }),
      ]);
    },
  });
}

/** Refused with 409 while a campaign that has not started sends to it or skips it. */
export function useDeleteSegment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteSegment({ path: { segment_uuid: uuid }, throwOnError: true });
    },
    onSuccess: (_nothing, uuid) => {
      queryClient.removeQueries({ queryKey: segmentKeys.detail(uuid) });
      return queryClient.invalidateQueries({ queryKey: segmentKeys.lists() });
    },
  });
}
