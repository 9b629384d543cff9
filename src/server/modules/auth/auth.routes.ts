import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CurrentUserSchema,
  errorsOf,
  LoginRequestSchema,
  LoginResultSchema,
  dataOf,
  PasswordChangeSchema,
  PasswordResetConfirmSchema,
  PasswordResetRequestSchema,
  ProfileInputSchema,
} from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { clearSessionCookies, setSessionCookies } from '../../http/session-cookies';
import type { AuthService } from './auth.service';
import type { UsersService } from '../users/users.service';

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService; users: UsersService; publicUrl: string }> = async (app, { auth, users, publicUrl }) => {
  // Cookies marked Secure when the dashboard is served over https (directly, or behind a trusted proxy).
  const secure = (protocol: string) => protocol === 'https' || publicUrl.startsWith('https:');
  app.post(
    '/auth/login',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'login',
        tags: ['Users and teams'],
        summary: 'Sign in with e-mail and password',
        description:
          'Returns a bearer token (valid 30 days, revoked by sign-out) and the user. After 10 failed attempts in a row (LOGIN_RATE_LIMIT_PER_MINUTE) for one e-mail address from one client address, the next attempt from that address waits 30 s after the last failure, twice as long after each further failure, up to 15 minutes (429 with Retry-After); a sign-in that succeeds clears the count. The same address signing in from elsewhere is never held up by them.',
        security: [],
        body: LoginRequestSchema,
        response: { 200: dataOf(LoginResultSchema), ...errorsOf(401, 422, 429) },
      },
    },
    async (request) => {
      const { token, user } = await auth.login(request.body, request.ip);
      return { data: { token, user } };
    },
  );

  app.post(
    '/auth/session',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'createSession',
        tags: ['Users and teams'],
        summary: 'Sign in the dashboard: a session cookie',
        description:
          'Herald extension, for browsers. Signs in like `/auth/login`, but the session (30 days, revoked by `DELETE /auth/session`) is kept in an HttpOnly, SameSite=Strict cookie no script can read, with a CSRF cookie whose value every change must carry in the `X-CSRF-Token` header. Limited like `/auth/login`.',
        security: [],
        body: LoginRequestSchema,
        response: { 200: dataOf(CurrentUserSchema), ...errorsOf(401, 422, 429) },
      },
    },
    async (request, reply) => {
      const { token, user } = await auth.login(request.body, request.ip);
      setSessionCookies(reply, token, secure(request.protocol));
      return { data: user };
    },
  );

  app.delete(
    '/auth/session',
    {
      config: { access: 'self' },
      schema: {
        operationId: 'deleteSession',
        tags: ['Users and teams'],
        summary: "Sign the dashboard out: revoke the cookie's session and clear the cookies",
        response: { 204: z.null().describe('Signed out.'), ...errorsOf(401, 403) },
      },
    },
    async (request, reply) => {
      await auth.logout(callerOf(request));
      clearSessionCookies(reply, secure(request.protocol));
      return reply.code(204).send(null);
    },
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

  app.put(
    '/users/me',
    {
      config: { access: 'self' },
      schema: {
        operationId: 'updateCurrentUser',
        tags: ['Users and teams'],
        summary: "Change the caller's name",
        body: ProfileInputSchema,
        response: { 200: dataOf(CurrentUserSchema), ...errorsOf(401, 403, 422) },
      },
    },
    async (request) => ({ data: await auth.updateProfile(callerOf(request), request.body) }),
  );

  app.put(
    '/users/me/password',
    {
      config: { access: 'self', rateLimit: { max: 10, bucket: 'password' } },
      schema: {
        operationId: 'changePassword',
        tags: ['Users and teams'],
        summary: "Change the caller's password",
        description:
          'Needs the current password. Every other dashboard session of the user is signed out; API tokens keep working unless `revoke_api_tokens` is true (then every API token of the account, in every team, is revoked too). The new password has at least 12 characters.',
        body: PasswordChangeSchema,
        response: { 204: z.null().describe('Changed.'), ...errorsOf(401, 403, 422, 429) },
      },
    },
    async (request, reply) => {
      await auth.changePassword(callerOf(request), request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/password-reset',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'requestPasswordReset',
        tags: ['Users and teams'],
        summary: 'Forgot password: e-mail a reset link',
        description:
          'Answers 202 whatever the address, so it tells nothing about which addresses have an account. An account is e-mailed a single-use link valid one hour (at most 3 an hour).',
        security: [],
        body: PasswordResetRequestSchema,
        response: { 202: z.null().describe('Accepted: a link is on its way when the address has an account.'), ...errorsOf(422, 429) },
      },
    },
    async (request, reply) => {
      await auth.requestReset(request.body);
      return reply.code(202).send(null);
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'confirmPasswordReset',
        tags: ['Users and teams'],
        summary: 'Set a new password with a reset link',
        description:
          'The link works once; every dashboard session of the account is signed out, and every API token of the account too unless `revoke_api_tokens` is false. A used or expired link is 404.',
        security: [],
        body: PasswordResetConfirmSchema,
        response: { 204: z.null().describe('The password is changed.'), ...errorsOf(404, 422, 429) },
      },
    },
    async (request, reply) => {
      await auth.confirmReset(request.body, request.ip);
      return reply.code(204).send(null);
    },
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
