import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataOf,
  errorsOf,
  pageOf,
  pageQueryOf,
  PageQuerySchema,
  SEGMENT_SORT,
  SegmentContactSchema,
  SegmentCountInputSchema,
  SegmentCountSchema,
  SegmentInputSchema,
  SegmentListQuerySchema,
  SegmentParamsSchema,
  SegmentRevenueSchema,
  SegmentSchema,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { SegmentsService } from './segments.service';

export const segmentsRoutes: FastifyPluginAsyncZod<{ segments: SegmentsService; publicUrl: string }> = async (app, { segments, publicUrl }) => {
  const tags = ['Segments'];

  app.get(
    '/segments/',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listSegments',
        tags,
        summary: "List the team's segments, newest first",
        querystring: pageQueryOf(SEGMENT_SORT).extend(SegmentListQuerySchema.shape),
        response: { 200: pageOf(SegmentSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await segments.list(callerOf(request), pageWindow(request.query), request.query.search);
      return pageEnvelope(request, publicUrl, request.query, total, items, { search: request.query.search });
    },
  );

  app.post(
    '/segments/',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'createSegment',
        tags,
        summary: 'Create a segment',
        description:
          'Conditions over contact fields, group membership, country and behaviour, with `match` all or any, nested one level as `group_of_conditions`. A group or campaign of another team is refused with 422 naming the condition.',
        body: SegmentInputSchema,
        response: { 201: dataOf(SegmentSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await segments.create(callerOf(request), request.body) }),
  );

  app.post(
    '/segments/count',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'countUnsavedSegment',
        tags,
        summary: 'Count a segment before saving it',
        description: 'Herald extension: how many of the team’s numbers the conditions match now (the builder’s live count); the name may be left out.',
        body: SegmentCountInputSchema,
        response: { 200: dataOf(SegmentCountSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => ({ data: await segments.countUnsaved(callerOf(request), request.body) }),
  );

  app.get(
    '/segments/:segment_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showSegment',
        tags,
        summary: 'Show a segment',
        params: SegmentParamsSchema,
        response: { 200: dataOf(SegmentSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await segments.show(callerOf(request), request.params.segment_uuid) }),
  );

  app.get(
    '/segments/:segment_uuid/count',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'countSegment',
        tags,
        summary: 'How many numbers the segment has now',
        description: 'Evaluated live: the team’s contacts and behaviour as they are at this moment.',
        params: SegmentParamsSchema,
        response: { 200: dataOf(SegmentCountSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => ({ data: await segments.count(callerOf(request), request.params.segment_uuid) }),
  );

  app.get(
    '/segments/:segment_uuid/contacts',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listSegmentContacts',
        tags,
        summary: "The segment's numbers, by number",
        description: 'Evaluated live. Each number with its fields merged over the team’s groups that hold it, and its country.',
        params: SegmentParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: pageOf(SegmentContactSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => {
      const { items, total } = await segments.contacts(callerOf(request), request.params.segment_uuid, pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.get(
    '/segments/:segment_uuid/revenue',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'showSegmentRevenue',
        tags,
        summary: 'Revenue of the campaigns that sent to the segment',
        description:
          'Herald extension. The latest 20 started campaigns that included the segment, newest first, each with the recipients the segment brought when its list was fixed at the start, and the orders and revenue credited to the messages to them (in the team’s currency; other currencies apart, never converted).',
        params: SegmentParamsSchema,
        response: { 200: dataOf(SegmentRevenueSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await segments.revenue(callerOf(request), request.params.segment_uuid) }),
  );

  app.put(
    '/segments/:segment_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'updateSegment',
        tags,
        summary: 'Edit a segment',
        description: 'A campaign that has started keeps the recipients fixed at its start.',
        params: SegmentParamsSchema,
        body: SegmentInputSchema,
        response: { 200: dataOf(SegmentSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => ({ data: await segments.update(callerOf(request), request.params.segment_uuid, request.body) }),
  );

  app.delete(
    '/segments/:segment_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'deleteSegment',
        tags,
        summary: 'Delete a segment',
        description: 'Refused with 409 while a campaign that has not started sends to it or skips it.',
        params: SegmentParamsSchema,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 404, 409) },
      },
    },
    async (request, reply) => {
      await segments.delete(callerOf(request), request.params.segment_uuid);
      return reply.code(204).send(null);
    },
  );
};
