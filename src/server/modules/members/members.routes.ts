import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dataOf,
  errorsOf,
  InvitationAcceptedSchema,
  InvitationAcceptSchema,
  InvitationInputSchema,
  InvitationPreviewSchema,
  InvitationSchema,
  MemberRoleInputSchema,
  MemberSchema,
  PageQuerySchema,
  pageOf,
  TeamSettingsInputSchema,
  TeamSettingsSchema,
  MEMBER_SORT,
  pageQueryOf,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { MembersService } from './members.service';

/** The caller's team: its members, invitations and settings; and the public side of an invitation link. */
export const membersRoutes: FastifyPluginAsyncZod<{ members: MembersService; publicUrl: string }> = async (app, { members, publicUrl }) => {
  const tags = ['Team'];
  const userParams = z.object({ user_uuid: z.uuid().describe("The member's user identifier.") });

  app.get(
    '/team/members',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listMembers',
        tags,
        summary: "The current team's members",
        description: 'Every member with their role, when they joined and when they last used Herald, by name.',
        querystring: pageQueryOf(MEMBER_SORT),
        response: { 200: pageOf(MemberSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await members.listMembers(callerOf(request), pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.get(
    '/team/members/:user_uuid',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'showMember',
        tags,
        summary: 'One member of the current team',
        description: 'Herald extension. A member with their role, when they joined and when they last used Herald.',
        params: userParams,
        response: { 200: dataOf(MemberSchema), ...errorsOf(401, 404, 422) },
      },
    },
    async (request) => ({ data: await members.showMember(callerOf(request), request.params.user_uuid) }),
  );

  app.put(
    '/team/members/:user_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'updateMember',
        tags,
        summary: "Change a member's role",
        description: 'The last admin of a team cannot be demoted (409).',
        params: userParams,
        body: MemberRoleInputSchema,
        response: { 200: dataOf(MemberSchema), ...errorsOf(401, 403, 404, 409, 422) },
      },
    },
    async (request) => ({ data: await members.setRole(callerOf(request), request.params.user_uuid, request.body.role) }),
  );

  app.delete(
    '/team/members/:user_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'removeMember',
        tags,
        summary: 'Remove a member from the team',
        description: 'Their sign-ins and API tokens of this team stop working at once. The last admin cannot be removed (409).',
        params: userParams,
        response: { 204: z.null().describe('Removed.'), ...errorsOf(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await members.remove(callerOf(request), request.params.user_uuid);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/team/invitations',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'listInvitations',
        tags,
        summary: 'Pending invitations',
        description: 'Invitations not yet accepted and not expired, newest first.',
        querystring: PageQuerySchema,
        response: { 200: pageOf(InvitationSchema), ...errorsOf(401, 403, 422) },
      },
    },
    async (request) => {
      const { items, total } = await members.listInvitations(callerOf(request), pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/team/invitations',
    {
      config: { access: 'admin', rateLimit: { max: 30, bucket: 'invitations' } },
      schema: {
        operationId: 'createInvitation',
        tags,
        summary: 'Invite someone by e-mail',
        description:
          'Sends an e-mail with a single-use link valid 7 days. Opening it, a new person chooses a name and password; someone with an account just joins. Inviting the same address again replaces the earlier link.',
        body: InvitationInputSchema,
        response: { 201: dataOf(InvitationSchema), ...errorsOf(401, 403, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await members.invite(callerOf(request), request.body) }),
  );

  app.delete(
    '/team/invitations/:invitation_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deleteInvitation',
        tags,
        summary: 'Withdraw a pending invitation',
        description: 'Its link stops working.',
        params: z.object({ invitation_uuid: z.uuid() }),
        response: { 204: z.null().describe('Withdrawn.'), ...errorsOf(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await members.withdraw(callerOf(request), request.params.invitation_uuid);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/invitations/:token',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'showInvitation',
        tags,
        summary: 'What an invitation link invites to',
        description: 'For the page that accepts it. A used, withdrawn or expired link is 404.',
        security: [],
        params: z.object({ token: z.string().max(200).describe('The secret from the link.') }),
        response: { 200: dataOf(InvitationPreviewSchema), ...errorsOf(404, 429) },
      },
    },
    async (request) => ({ data: await members.preview(request.params.token) }),
  );

  app.post(
    '/invitations/accept',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'acceptInvitation',
        tags,
        summary: 'Accept an invitation',
        description: 'Joins the team. A new person also sends `name` and `password`; an existing account needs neither and then signs in as usual.',
        security: [],
        body: InvitationAcceptSchema,
        response: { 200: dataOf(InvitationAcceptedSchema), ...errorsOf(404, 422, 429) },
      },
    },
    async (request) => ({ data: await members.accept(request.body, request.ip) }),
  );

  app.get(
    '/team/settings',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'showTeamSettings',
        tags,
        summary: "The current team's settings",
        response: { 200: dataOf(TeamSettingsSchema), ...errorsOf(401) },
      },
    },
    async (request) => ({ data: await members.settings(callerOf(request)) }),
  );

  app.put(
    '/team/settings',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'updateTeamSettings',
        tags,
        summary: "Change the current team's settings",
        description: 'A new approval threshold applies to campaigns created or edited from now on.',
        body: TeamSettingsInputSchema,
        response: { 200: dataOf(TeamSettingsSchema), ...errorsOf(401, 403, 422) },
      },
    },
    async (request) => ({ data: await members.updateSettings(callerOf(request), request.body) }),
  );
};
