import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FlowInput, FlowPatch, FlowRunInput } from '../../../shared/contract';
import { createFlow, deleteFlow, startFlowRun, updateFlow } from '../../api/gen/sdk.gen';
import { flowKeys } from './flow-queries';

export function useCreateFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: FlowInput) => (await createFlow({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flowKeys.lists() }),
  });
}

/** The saved flow (its steps with their ids and counts) replaces the cached one. */
export function useUpdateFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ uuid, patch }: { uuid: string; patch: FlowPatch }) =>
      (await updateFlow({ path: { flow_uuid: uuid }, body: patch, throwOnError: true })).data.data,
    onSuccess: (saved) => {
      queryClient.setQueryData(flowKeys.detail(saved.uuid), saved);
      // An edit may end runs (a removed step, a disabled flow).
      void queryClient.invalidateQueries({ queryKey: flowKeys.runs(saved.uuid) });
      return queryClient.invalidateQueries({ queryKey: flowKeys.lists() });
    },
  });
}

export function useDeleteFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteFlow({ path: { flow_uuid: uuid }, throwOnError: true });
    },
    onSuccess: (_nothing, uuid) => {
      queryClient.removeQueries({ queryKey: flowKeys.detail(uuid) });
      return queryClient.invalidateQueries({ queryKey: flowKeys.lists() });
    },
  });
}

/** Starts a run of the flow for one number (the "test with my number" button); the run joins the flow's runs. */
export function useStartFlowRun(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: FlowRunInput) => (await startFlowRun({ path: { flow_uuid: uuid }, body: input, throwOnError: true })).data.data,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: flowKeys.contactRuns() });
      return queryClient.invalidateQueries({ queryKey: flowKeys.detail(uuid) });
    },
  });
}
