import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AbTestWinnerInputSchema,
  ApprovalDecisionSchema,
  CampaignInputSchema,
  CampaignListQuerySchema,
  CampaignParamsSchema,
  CampaignReviewSchema,
  CampaignSchema,
  CampaignSummarySchema,
  errorsOf,
  SendTestInputSchema,
  TestSendInputSchema,
  dataOf,
  pageOf,
  CAMPAIGN_SORT,
  pageQueryOf,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { CampaignsService } from './campaigns.service';

export const campaignsRoutes: FastifyPluginAsyncZod<{ campaigns: CampaignsService; publicUrl: string }> = async (app, { campaigns, publicUrl }) => {
  const tags = ['Campaigns'];
  const one = errorsOf(401, 404);

  app.get(
    '/campaigns/',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listCampaigns',
        tags,
        summary: "List the team's campaigns, newest first",
        querystring: pageQueryOf(CAMPAIGN_SORT).extend(CampaignListQuerySchema.shape),
        response: { 200: pageOf(CampaignSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await campaigns.list(callerOf(request), pageWindow(request.query), {
        status: request.query.status,
        approval: request.query.approval,
        includeTests: request.query.include_tests,
        templateUuid: request.query.template_uuid,
        search: request.query.search,
        scheduledFrom: request.query.scheduled_from,
        scheduledTo: request.query.scheduled_to,
      });
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/campaigns/',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'createCampaign',
        tags,
        summary: 'Create a campaign (throttled with `throttled: true`)',
        description:
          'Status 0. Rules (422 naming the field): sender 3–11, and for an editor one of the team’s senders or 88440 (an admin’s new sender joins the team’s list); template and groups the team’s; send before expiry; throttled: finish after send and not after expiry; pauses inside [send, finish], each ending after it starts, not overlapping, at most 50.',
        body: CampaignInputSchema,
        response: { 201: dataOf(CampaignSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await campaigns.create(callerOf(request), request.body) }),
  );

  app.post(
    '/campaigns/send-test',
    {
      config: { access: 'edit', rateLimit: { max: 10, bucket: 'send-test' } },
      schema: {
        operationId: 'sendTestCampaign',
        tags,
        summary: 'A one-recipient test campaign',
        description:
          'Status 0, no excluded groups; the sender as for a campaign (an editor: one of the team’s senders or 88440); `custom_fields` are the recipient’s (without them, no personalisation).',
        body: SendTestInputSchema,
        response: { 201: dataOf(CampaignSchema), ...errorsOf(401, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await campaigns.sendTest(callerOf(request), request.body) }),
  );

  app.post(
    '/campaigns/:campaign_uuid/test-sends',
    {
      config: { access: 'edit', rateLimit: { max: 10, bucket: 'send-test' } },
      schema: {
        operationId: 'createCampaignTestSends',
        tags,
        summary: 'Send a test of a campaign now',
        description:
          "Herald extension. One test campaign per number (the caller's own profile number when none is given), sent now with the campaign's template and sender, whatever its status or quiet hours; `contact_phone_number` takes the fields of that recipient of the campaign. Test campaigns are left out of `GET /campaigns/` unless `include_tests=true`, and listed in the campaign's review.",
        params: CampaignParamsSchema,
        body: TestSendInputSchema,
        response: { 201: dataOf(z.array(CampaignSchema)), ...one, ...errorsOf(422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await campaigns.testSends(callerOf(request), request.params.campaign_uuid, request.body) }),
  );

  app.get(
    '/campaigns/:campaign_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showCampaign',
        tags,
        summary: 'Show a campaign',
        params: CampaignParamsSchema,
        response: { 200: dataOf(CampaignSchema), ...one },
      },
    },
    async (request) => ({ data: await campaigns.show(callerOf(request), request.params.campaign_uuid) }),
  );

  app.get(
    '/campaigns/:campaign_uuid/summary',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showCampaignSummary',
        tags,
        summary: 'Recipients and message counts',
        params: CampaignParamsSchema,
        response: { 200: dataOf(CampaignSummarySchema), ...one },
      },
    },
    async (request) => ({ data: await campaigns.summary(callerOf(request), request.params.campaign_uuid) }),
  );

  app.put(
    '/campaigns/:campaign_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'updateCampaign',
        tags,
        summary: 'Edit a campaign (normal or throttled)',
        description: 'Refused with 423 once the send time has passed or while it is sending. May set `manually_paused`.',
        params: CampaignParamsSchema,
        body: CampaignInputSchema,
        response: { 200: dataOf(CampaignSchema), ...one, ...errorsOf(422, 423) },
      },
    },
    async (request) => ({ data: await campaigns.update(callerOf(request), request.params.campaign_uuid, request.body) }),
  );

  app.put(
    '/campaigns/:campaign_uuid/toggle-paused-status',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'toggleCampaignPaused',
        tags,
        summary: 'Pause or resume a throttled campaign',
        description:
          '`manually_paused` null → true → false → true…; 409 for a campaign that is not throttled or has finished sending. Two toggles at once flip it twice.',
        params: CampaignParamsSchema,
        response: { 200: dataOf(CampaignSchema), ...one, ...errorsOf(409) },
      },
    },
    async (request) => ({ data: await campaigns.togglePaused(callerOf(request), request.params.campaign_uuid) }),
  );

  app.get(
    '/campaigns/:campaign_uuid/review',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'reviewCampaign',
        tags,
        summary: 'Review a campaign before it goes out',
        description:
          'Herald extension. Recipients, SMS parts per message over the real audience, total parts and cost, when it starts and finishes (throttle, quiet hours, gateway rate), personalisation coverage, the approval needed and the test sends made. Computed now: the groups may change until the campaign starts.',
        params: CampaignParamsSchema,
        response: { 200: dataOf(CampaignReviewSchema), ...one },
      },
    },
    async (request) => ({ data: await campaigns.review(callerOf(request), request.params.campaign_uuid) }),
  );

  app.post(
    '/campaigns/preview',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'previewCampaign',
        tags,
        summary: 'Review a campaign that is not saved',
        description:
          'Herald extension. The review of a campaign body (the same body as create), nothing written: the create rules apply except those of scheduling (it is read as a draft), so a field no group has shows in `coverage` as `blocking` instead of a 422.',
        body: CampaignInputSchema,
        response: { 200: dataOf(CampaignReviewSchema), ...errorsOf(401, 403, 422) },
      },
    },
    async (request) => ({ data: await campaigns.preview(callerOf(request), request.body) }),
  );

  app.put(
    '/campaigns/:campaign_uuid/stop',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'stopCampaign',
        tags,
        summary: 'Stop a campaign',
        description:
          'Herald extension. For a pending or sending campaign (normal or throttled): nothing more is submitted (a batch already with the carrier finishes); queued messages become unsent with reason `stopped`; submitted ones still get their receipts; the reports stay. A pending campaign is finished at once (status 2). `stopped_at` says when. 409 for a draft, a finished or an already stopped campaign.',
        params: CampaignParamsSchema,
        response: { 200: dataOf(CampaignSchema), ...one, ...errorsOf(409) },
      },
    },
    async (request) => ({ data: await campaigns.stop(callerOf(request), request.params.campaign_uuid) }),
  );

  app.post(
    '/campaigns/:campaign_uuid/ab-test/winner',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'pickCampaignAbTestWinner',
        tags,
        summary: "Pick an A/B test's winner",
        description:
          'Herald extension. Before the test is decided (docs/ab-tests.md): the variant named wins (`decided_by` `manual`) and the rest of the audience gets it. 409 once decided, before the campaign sends, after it stopped or finished, or without an A/B test; 422 for a name that is not a variant.',
        params: CampaignParamsSchema,
        body: AbTestWinnerInputSchema,
        response: { 200: dataOf(CampaignSchema), ...one, ...errorsOf(409) },
      },
    },
    async (request) => ({ data: await campaigns.pickAbWinner(callerOf(request), request.params.campaign_uuid, request.body.variant) }),
  );

  app.post(
    '/campaigns/:campaign_uuid/duplicate',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'duplicateCampaign',
        tags,
        summary: 'Duplicate a campaign as a draft',
        description:
          'Herald extension. A draft copy named "… (copy)": the same template, sender, groups, segments, dates, throttling, pauses and `local_time` (and `ignore_quiet_hours` when an admin copies), none of its state (status, approval, stop, expiry, counts). 409 for a test send.',
        params: CampaignParamsSchema,
        response: { 201: dataOf(CampaignSchema), ...one, ...errorsOf(409) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await campaigns.duplicate(callerOf(request), request.params.campaign_uuid) }),
  );

  app.post(
    '/campaigns/:campaign_uuid/resend-unreached',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'resendUnreachedCampaign',
        tags,
        summary: 'Send to those not reached: a draft to the recipients a stopped or expired campaign did not reach',
        description:
          'Herald extension. From a stopped or expired campaign, a draft named "… (not reached)" whose audience is a new contact group of the recipients it did not reach, with their fields: its unsent messages (but opted-out and invalid numbers), those still queued by a stop not yet swept, and the recipients of its audience it never wrote (a stop or expiry while it was being written). The draft has the campaign’s settings, as a duplicate. 409 for a campaign neither stopped nor expired, or a test send.',
        params: CampaignParamsSchema,
        response: { 201: dataOf(CampaignSchema), ...one, ...errorsOf(409) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await campaigns.resendUnreached(callerOf(request), request.params.campaign_uuid) }),
  );

  for (const [decision, status] of [
    ['approve', 'approved'],
    ['reject', 'rejected'],
  ] as const) {
    app.put(
      `/campaigns/:campaign_uuid/${decision}`,
      {
        config: { access: 'admin' },
        schema: {
          operationId: `${decision}Campaign`,
          tags,
          summary: decision === 'approve' ? 'Approve a campaign waiting for approval' : 'Reject a campaign waiting for approval',
          description:
            (decision === 'approve'
              ? 'Herald extension. The campaign starts at its send time, or at once when that has passed (before its expiry). '
              : 'Herald extension. The campaign does not start; an edit asks for approval again. ') +
            'By an admin other than the member who asked (403 for them); 409 when the campaign is not waiting for approval.',
          params: CampaignParamsSchema,
          body: ApprovalDecisionSchema,
          response: { 200: dataOf(CampaignSchema), ...one, ...errorsOf(403, 409) },
        },
      },
      async (request) => ({ data: await campaigns.decide(callerOf(request), request.params.campaign_uuid, status, request.body) }),
    );
  }

  app.delete(
    '/campaigns/:campaign_uuid',
    {
      config: { access: 'edit' },
      schema: {
        operationId: 'deleteCampaign',
        tags,
        summary: 'Delete a campaign',
        description: 'Refused with 423 while it is sending.',
        params: CampaignParamsSchema,
        response: { 204: z.null().describe('Deleted.'), ...one, ...errorsOf(423) },
      },
    },
    async (request, reply) => {
      await campaigns.delete(callerOf(request), request.params.campaign_uuid);
      return reply.code(204).send(null);
    },
  );
};
