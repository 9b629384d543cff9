import { z } from 'zod';
import { EventEndpointInputSchema, type EventEndpointInput, type EventEndpointPatch } from '../../../shared/contract';
import { HeaderRowsSchema, headersFromRows, sameHeaders } from '../../lib/header-rows';

/** What the form edits; `enabled` is switched on the endpoint's page, not here. */
export type EventEndpointSettings = Omit<EventEndpointInput, 'enabled'>;

export const EventEndpointFormSchema = z.object({
  url: EventEndpointInputSchema.shape.url,
  description: EventEndpointInputSchema.shape.description.unwrap(),
  events: EventEndpointInputSchema.shape.events,
  headers: HeaderRowsSchema,
});
export type EventEndpointFormValues = z.infer<typeof EventEndpointFormSchema>;

export function toEventEndpointSettings(values: EventEndpointFormValues): EventEndpointSettings {
  return { url: values.url, description: values.description.trim(), events: values.events, headers: headersFromRows(values.headers) };
}

/** Only what changed: the edit is a partial PUT, so untouched fields keep their stored values. */
export function eventEndpointPatch(original: EventEndpointSettings, edited: EventEndpointSettings): EventEndpointPatch {
  const patch: EventEndpointPatch = {};
  if (edited.url !== original.url) patch.url = edited.url;
  if (edited.description !== original.description) patch.description = edited.description;
  if (edited.events.length !== original.events.length || edited.events.some((type) => !original.events.includes(type))) patch.events = edited.events;
  if (!sameHeaders(edited.headers, original.headers)) patch.headers = edited.headers;
  return patch;
}
