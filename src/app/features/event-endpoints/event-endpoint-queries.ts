import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { EventDelivery } from '../../../shared/contract';
import { listEventDeliveries, listEventEndpoints, showEventDelivery, showEventEndpoint } from '../../api/gen/sdk.gen';

export interface EventEndpointListParams {
  page: number;
  per_page: number;
}

export interface EventDeliveryListParams extends EventEndpointListParams {
  /** Only the deliveries in this status; omitted for all. */
  status?: EventDelivery['status'];
}

export const eventEndpointKeys = {
  all: ['event-endpoints'] as const,
  lists: () => [...eventEndpointKeys.all, 'list'] as const,
  list: (params: EventEndpointListParams) => [...eventEndpointKeys.lists(), params] as const,
  detail: (uuid: string) => [...eventEndpointKeys.all, 'detail', uuid] as const,
  deliveries: (uuid: string) => [...eventEndpointKeys.detail(uuid), 'deliveries'] as const,
  deliveryPage: (uuid: string, params: EventDeliveryListParams) => [...eventEndpointKeys.deliveries(uuid), 'list', params] as const,
  delivery: (uuid: string, deliveryUuid: string) => [...eventEndpointKeys.deliveries(uuid), 'detail', deliveryUuid] as const,
};

export const eventEndpointQueries = {
  list: (params: EventEndpointListParams) =>
    queryOptions({
      queryKey: eventEndpointKeys.list(params),
      queryFn: async ({ signal }) => (await listEventEndpoints({ query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  detail: (uuid: string) =>
    queryOptions({
      queryKey: eventEndpointKeys.detail(uuid),
      queryFn: async ({ signal }) => (await showEventEndpoint({ path: { endpoint_uuid: uuid }, signal, throwOnError: true })).data.data,
    }),
  /** The endpoint's deliveries, newest first. */
  deliveries: (uuid: string, params: EventDeliveryListParams) =>
    queryOptions({
      queryKey: eventEndpointKeys.deliveryPage(uuid, params),
      queryFn: async ({ signal }) => (await listEventDeliveries({ path: { endpoint_uuid: uuid }, query: params, signal, throwOnError: true })).data,
      placeholderData: keepPreviousData,
    }),
  /** One delivery with the body it POSTs and every attempt. */
  delivery: (uuid: string, deliveryUuid: string) =>
    queryOptions({
      queryKey: eventEndpointKeys.delivery(uuid, deliveryUuid),
      queryFn: async ({ signal }) =>
        (await showEventDelivery({ path: { endpoint_uuid: uuid, delivery_uuid: deliveryUuid }, signal, throwOnError: true })).data.data,
    }),
};
