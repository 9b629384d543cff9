import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ContactPhoneParamsSchema,
  dataOf,
  errorsOf,
  FlowInputSchema,
  FlowListQuerySchema,
  FlowParamsSchema,
  FlowPatchSchema,
  FlowRunInputSchema,
  FlowRunListQuerySchema,
  FlowRunSchema,
  FlowSchema,
  pageOf,
  PageQuerySchema,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { FlowsService } from './flows.service';

export const flowsRoutes: FastifyPluginAsyncZod<{ flows: FlowsService; publicUrl: string }> = async (app, { flows, publicUrl }) => {
  const tags = ['Flows'];

  app.get(
    '/flows/',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listFlows',
        tags,
        summary: "List the team's flows, newest first",
        querystring: PageQuerySchema.extend(FlowListQuerySchema.shape),
        response: { 200: pageOf(FlowSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await flows.list(callerOf(request), pageWindow(request.query), request.query.search);
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/flows/',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'createFlow',
        tags,
        summary: 'Create a flow',
        description:
          'Every keyword, group, template and segment uuid must be the team’s (422 naming the field). Each step gets an `id`; the answer shows the flow’s `signing_secret` this once (docs/flows.md).',
        body: FlowInputSchema,
        response: { 201: dataOf(FlowSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await flows.create(callerOf(request), request.body) }),
  );

  app.get(
    '/flows/:flow_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showFlow',
        tags,
        summary: 'Show a flow, with each step’s counts',
        params: FlowParamsSchema,
        response: { 200: dataOf(FlowSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await flows.show(callerOf(request), request.params.flow_uuid) }),
  );

  app.put(
    '/flows/:flow_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'updateFlow',
        tags,
        summary: 'Edit a flow',
        description:
          'The fields of create; any may change, the others keep their values. Send steps back with their `id` to keep their counts and the runs at them; a run at a step that is gone ends (`step_removed`). Disabling a flow ends its active runs (`flow_disabled`).',
        params: FlowParamsSchema,
        body: FlowPatchSchema,
        response: { 200: dataOf(FlowSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => ({ data: await flows.update(callerOf(request), request.params.flow_uuid, request.body) }),
  );

  app.delete(
    '/flows/:flow_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'deleteFlow',
        tags,
        summary: 'Delete a flow and its runs',
        params: FlowParamsSchema,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 404) },
      },
    },
    async (request, reply) => {
      await flows.delete(callerOf(request), request.params.flow_uuid);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/flows/:flow_uuid/runs',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'startFlowRun',
        tags,
        summary: 'Start a run of the flow for a number',
        description:
          'The `api` trigger (any flow may be started so). 409 when the flow is disabled, the number is opted out, already in an active run of the flow, or the flow allows no re-entry and the number ran it before; 422 for a number that is not one. With `test: true`, a test run (docs/flows.md, "Test runs"): also of a disabled flow, whatever the re-entry setting or the number’s ordinary run, in place of its active test run; waits of at most a minute, messages not marketing and through quiet hours, not counted in the flow’s stats or runs; 409 only for an opted-out number, 422 for a number that is neither a member’s own nor a test number (unless an admin starts it).',
        params: FlowParamsSchema,
        body: FlowRunInputSchema,
        response: { 201: dataOf(FlowRunSchema), ...errorsOf(401, 404, 409, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await flows.startRun(callerOf(request), request.params.flow_uuid, request.body) }),
  );

  app.get(
    '/flows/:flow_uuid/runs',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listFlowRuns',
        tags,
        summary: "The flow's runs, newest first, each with its step history",
        params: FlowParamsSchema,
        querystring: PageQuerySchema.extend(FlowRunListQuerySchema.shape),
        response: { 200: pageOf(FlowRunSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => {
      const { items, total } = await flows.runsOfFlow(callerOf(request), request.params.flow_uuid, pageWindow(request.query), request.query.state);
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.get(
    '/contacts/:phone_number/flow-runs',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listContactFlowRuns',
        tags,
        summary: "A number's runs of the team's flows, newest first, each with its step history",
        description:
          'Herald extension, for the contact page. An empty list for a number of the team’s groups that never ran a flow; 404 when the team holds nothing about the number (no runs, in none of its groups).',
        params: ContactPhoneParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: pageOf(FlowRunSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => {
      const { items, total } = await flows.runsOfNumber(callerOf(request), request.params.phone_number, pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );
};
