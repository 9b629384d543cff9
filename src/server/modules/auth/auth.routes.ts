import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CurrentUserSchema, errorsOf, LoginRequestSchema, LoginResultSchema, dataOf } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import type { AuthService } from './auth.service';
import type { UsersService } from '../users/users.service';

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService; users: UsersService }> = async (app, { auth, users }) => {
  app.post(
    '/auth/login',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'login',
        tags: ['Users and teams'],
        summary: 'Sign in with e-mail and password',
        description: 'Returns a bearer token (valid 30 days, revoked by sign-out) and the user. Limited to 10 attempts a minute per address.',
        security: [],
        body: LoginRequestSchema,
        response: { 200: dataOf(LoginResultSchema), ...errorsOf(401, 422, 429) },
      },
    },
    async (request) => ({ data: await auth.login(request.body) }),
  );

  app.post(
    '/auth/logout',
    {
      config: { access: 'self' },
      schema: {
        operationId: 'logout',
        tags: ['Users and teams'],
        summary: 'Sign out: revoke the token of this request',
        response: { 204: z.null().describe('Signed out.'), ...errorsOf(401) },
      },
    },
    async (request, reply) => {
      await auth.logout(callerOf(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/users/me',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'showCurrentUser',
        tags: ['Users and teams'],
        summary: 'The calling user, their teams and current team',
        response: { 200: dataOf(CurrentUserSchema), ...errorsOf(401) },
      },
    },
    async (request) => ({ data: await users.current(callerOf(request)) }),
  );

  app.get(
    '/users/switch/team/:team_uuid',
    {
      config: { access: 'self' },
      schema: {
        operationId: 'switchTeam',
        tags: ['Users and teams'],
        summary: "Switch the user's current team",
        description: 'Every later request of this user is scoped to that team. A team the user is not in is answered 404.',
        params: z.object({ team_uuid: z.uuid().describe('Identifier of a team the user belongs to.') }),
        response: { 200: dataOf(CurrentUserSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await users.switchTeam(callerOf(request), request.params.team_uuid) }),
  );
};
