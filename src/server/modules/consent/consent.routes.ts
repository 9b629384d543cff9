import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConsentRecordSchema, ContactPhoneParamsSchema, dataOf, errorsOf } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import type { ConsentService } from './consent.service';

export const consentRoutes: FastifyPluginAsyncZod<{ consent: ConsentService }> = async (app, { consent }) => {
  app.get(
    '/contacts/:phone_number/consent',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showContactConsent',
        tags: ['Contacts'],
        summary: "How and when a number agreed to the team's messages",
        description:
          "Herald extension. The number's consent records, oldest first: each with its source (keyword, form, import, api, checkout, dashboard), when, the text the team showed and the evidence (docs/consent.md). A number the team holds but has no consent of answers an empty list; 404 when the team holds nothing about the number. Its double opt-in state is the contact's `opt_in_request` (GET /contacts/{phone_number}).",
        params: ContactPhoneParamsSchema,
        response: { 200: dataOf(z.array(ConsentRecordSchema)), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await consent.recordsOf(callerOf(request), request.params.phone_number) }),
  );
};
