import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConversionInputSchema, ConversionListQuerySchema, ConversionSchema, dataOf, errorsOf, pageOf } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { ConversionsService } from './conversions.service';

const ConversionParamsSchema = z.object({ conversion_uuid: z.uuid().describe('Identifier of the conversion.') });

/** Conversions (docs/conversions.md): orders a team reports, each credited to a campaign when recorded. */
export const conversionsRoutes: FastifyPluginAsyncZod<{ conversions: ConversionsService; publicUrl: string }> = async (app, { conversions, publicUrl }) => {
  const tags = ['Conversions'];

  app.post(
    '/conversions/',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'createConversion',
        tags,
        summary: 'Record an order (a conversion)',
        description:
          "Idempotent by `order_id` within the team: the first call records the order and answers 201; a later call with the same `order_id` answers 200 with the conversion as it was recorded and changes nothing, even when its body differs. The conversion is credited when recorded: to the number's last human click on a tracked link within the team's `click_window_days` before `occurred_at` (`attributed_by` `click`), else to the last campaign message delivered to it within `view_window_hours` (`view`), else to none (null).",
        body: ConversionInputSchema,
        response: { 200: dataOf(ConversionSchema), 201: dataOf(ConversionSchema), ...errorsOf(401, 403, 422) },
      },
    },
    async (request, reply) => {
      const { conversion, created } = await conversions.record(callerOf(request), request.body);
      return reply.code(created ? 201 : 200).send({ data: conversion });
    },
  );

  app.get(
    '/conversions/',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listConversions',
        tags,
        summary: "List the team's conversions, the latest order first",
        querystring: ConversionListQuerySchema,
        response: { 200: pageOf(ConversionSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await conversions.list(callerOf(request), request.query, pageWindow(request.query));
      const { campaign_uuid, phone_number } = request.query;
      return pageEnvelope(request, publicUrl, request.query, total, items, { campaign_uuid, phone_number });
    },
  );

  app.get(
    '/conversions/:conversion_uuid',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'showConversion',
        tags,
        summary: 'Show a conversion',
        params: ConversionParamsSchema,
        response: { 200: dataOf(ConversionSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await conversions.show(callerOf(request), request.params.conversion_uuid) }),
  );
};
