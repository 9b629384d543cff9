import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EventEndpointInput, EventEndpointPatch } from '../../../shared/contract';
import {
  createEventEndpoint,
  deleteEventEndpoint,
  redeliverEvent,
  rotateEventEndpointSecret,
  testEventEndpoint,
  updateEventEndpoint,
} from '../../api/gen/sdk.gen';
import { eventEndpointKeys } from './event-endpoint-queries';

export function useCreateEventEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: EventEndpointInput) => (await createEventEndpoint({ body: input, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: eventEndpointKeys.lists() }),
  });
}

/** A partial edit; the saved endpoint replaces the cached one (enabling it also clears why Herald disabled it). */
export function useUpdateEventEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ uuid, patch }: { uuid: string; patch: EventEndpointPatch }) =>
      (await updateEventEndpoint({ path: { endpoint_uuid: uuid }, body: patch, throwOnError: true })).data.data,
    onSuccess: (saved) => {
      queryClient.setQueryData(eventEndpointKeys.detail(saved.uuid), saved);
      return queryClient.invalidateQueries({ queryKey: eventEndpointKeys.lists() });
    },
  });
}

export function useRotateEventEndpointSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => (await rotateEventEndpointSecret({ path: { endpoint_uuid: uuid }, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: eventEndpointKeys.all }),
  });
}

export function useDeleteEventEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (uuid: string) => {
      await deleteEventEndpoint({ path: { endpoint_uuid: uuid }, throwOnError: true });
    },
    onSuccess: (_nothing, uuid) => {
      queryClient.removeQueries({ queryKey: eventEndpointKeys.detail(uuid) });
      return queryClient.invalidateQueries({ queryKey: eventEndpointKeys.lists() });
    },
  });
}

/** One `event_endpoint.test` call, made at once; the answer is its delivery, which joins the list. */
export function useTestEventEndpoint(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await testEventEndpoint({ path: { endpoint_uuid: uuid }, throwOnError: true })).data.data,
    onSuccess: (delivery) => {
      queryClient.setQueryData(eventEndpointKeys.delivery(uuid, delivery.uuid), delivery);
      // A call that worked (or failed) changes when the endpoint counts as failing.
      return queryClient.invalidateQueries({ queryKey: eventEndpointKeys.detail(uuid) });
    },
  });
}

/** Sends a delivery again: it is pending once more, with its attempts so far kept. */
export function useRedeliverEvent(uuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (deliveryUuid: string) =>
      (await redeliverEvent({ path: { endpoint_uuid: uuid, delivery_uuid: deliveryUuid }, throwOnError: true })).data.data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: eventEndpointKeys.deliveries(uuid) }),
  });
}
