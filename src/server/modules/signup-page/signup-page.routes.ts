import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dataOf, errorsOf, SignupPageInputSchema, SignupPageSchema } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import type { SignupPageService } from './signup-page.service';

/** `GET/PUT /team/signup-page` (Herald extension): the team's hosted sign-up page; every member reads it, admins change it. */
export const signupPageRoutes: FastifyPluginAsyncZod<{ signupPage: SignupPageService }> = async (app, { signupPage }) => {
  const tags = ['Sign-up page'];

  app.get(
    '/team/signup-page',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'showSignupPage',
        tags,
        summary: "The team's hosted sign-up page",
        description:
          'Herald extension. The page at `/join/{slug}` (and on each of the team’s link domains) where a visitor asks for the team’s texts; each sign-up is a double opt-in request. 404 until an admin sets it up.',
        response: { 200: dataOf(SignupPageSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await signupPage.show(callerOf(request)) }),
  );

  app.put(
    '/team/signup-page',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'updateSignupPage',
        tags,
        summary: "Set up or change the team's hosted sign-up page",
        description:
          'Herald extension. Creates the page or replaces its settings. A slug another team holds is refused with 409; the group must be one of the team’s contact groups (not the opt-out list).',
        body: SignupPageInputSchema,
        response: { 200: dataOf(SignupPageSchema), ...errorsOf(401, 403, 409, 422) },
      },
    },
    async (request) => ({ data: await signupPage.save(callerOf(request), request.body) }),
  );
};
