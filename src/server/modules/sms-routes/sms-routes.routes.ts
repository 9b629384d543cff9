import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorsOf, SmsRoutesInputSchema, SmsRoutesSchema } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import type { SmsRoutesService } from './sms-routes.service';

const RULES =
  "The first rule whose `countries` hold the recipient's country (read from its number with libphonenumber; `*` covers every country, and numbers of none) gives the connections to try, in order, and optionally the `sender` to use through them. No routes: the team's enabled connections, in the order they were made, for every country; a team with no connection sends through the installation's SMS_GATEWAY.";

/** The team's routes (docs/providers.md, Routes), for admins only, as the SMS connections they name. */
export const smsRoutesRoutes: FastifyPluginAsyncZod<{ smsRoutes: SmsRoutesService }> = async (app, { smsRoutes }) => {
  const tags = ['SMS connections'];

  app.get(
    '/sms-routes',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'showSmsRoutes',
        tags,
        summary: "The team's routes, in order",
        description: `${RULES} A team without routes gets \`{"routes": []}\`.`,
        response: { 200: SmsRoutesSchema, ...errorsOf(401, 403) },
      },
    },
    async (request) => smsRoutes.show(callerOf(request)),
  );

  app.put(
    '/sms-routes',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'updateSmsRoutes',
        tags,
        summary: "Replace the team's routes",
        description: `${RULES} The list replaces the one before; an empty list removes the routes. At most 200 rules of 1 to 10 connections each. Refused with 422, naming the field (\`routes.0.countries.1\`): a country that is not an ISO 3166 alpha-2 code in capitals, \`*\` beside countries, a repeated country or connection, a connection that is not one of the team's (or is an SMPP one, which cannot be routed yet), a sender that is not one of the senders of each of the rule's connections that lists senders, and a rule after a \`*\` rule (it could never match).`,
        body: SmsRoutesInputSchema,
        response: { 200: SmsRoutesSchema, ...errorsOf(401, 403, 422) },
      },
    },
    async (request) => smsRoutes.replace(callerOf(request), request.body),
  );
};
