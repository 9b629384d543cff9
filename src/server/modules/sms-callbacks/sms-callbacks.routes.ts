import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorsOf, SmsConnectionParamsSchema } from '../../../shared/contract';
import type { ProviderCallback } from '../../gateways/sms/providers/provider';
import type { CallbackKind, SmsCallbacksService } from './sms-callbacks.service';

const DESCRIPTIONS: Record<CallbackKind, string> = {
  status:
    "Where the connection's provider posts delivery statuses (the connection's `status_callback_url`). No token: the provider's signature, checked with the connection's credentials, is the authentication; a forged or unsigned callback is 403 and changes nothing. A final status settles its message once (a later or repeated one never overwrites it). 200 once what it says is stored; 404 for an unknown connection or one without an HTTP provider; 422 when the provider's callback holds nothing Herald can read.",
  inbound:
    "Where the connection's provider posts messages from handsets (the connection's `inbound_url`): each goes through the keywords, STOP, START and HELP as a message to the connection's team, once however often it is redelivered. No token: the provider's signature is the authentication (403 when it does not match). Twilio is answered with an empty TwiML `<Response/>` (text/xml), the others with an empty 200.",
};

/**
 * The providers' callbacks (docs/providers.md, Callbacks): public routes, authenticated by the
 * provider's signature, which covers the request's exact bytes. So this plugin reads every body
 * raw, whatever its type (form, JSON, or anything else a provider may send, which the adapter then
 * refuses or reads): the parsers are the plugin's own, and every other route keeps the app's.
 * GET is taken too: Vonage and Plivo can be set to call back with the parameters in the query.
 */
export const smsCallbacksRoutes: FastifyPluginAsyncZod<{ smsCallbacks: SmsCallbacksService; publicUrl: string }> = async (app, { smsCallbacks, publicUrl }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  // A body sent as JSON that is not JSON is refused (400) as on every other route; the handler still gets its bytes.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const raw = body as Buffer;
    if (raw.toString('utf8').trim() === '') return done(null, raw);
    parseJson(request, raw.toString('utf8'), (error) => (error ? done(error, undefined) : done(null, raw)));
  });

  const tags = ['SMS provider callbacks'];
  const handler = (kind: CallbackKind) => async (request: FastifyRequest<{ Params: { connection_uuid: string } }>, reply: FastifyReply) => {
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const callback: ProviderCallback = {
      method: request.method,
      // The URL the provider was given and signed: Herald builds it from PUBLIC_URL, and serves it
      // here under /api/2.0 (a proxy in front of it strips any path PUBLIC_URL has, as for every link).
      url: `${publicUrl}${request.url}`,
      headers,
      rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
    };
    const answer = await smsCallbacks.take(kind, request.params.connection_uuid, callback);
    reply.code(answer.statusCode);
    if (answer.contentType) reply.header('content-type', answer.contentType);
    return reply.send(answer.body ?? '');
  };

  for (const kind of ['status', 'inbound'] as const) {
    const name = kind === 'status' ? 'Status' : 'Inbound';
    for (const method of ['POST', 'GET'] as const)
      app.route({
        method,
        url: `/sms-connections/:connection_uuid/${kind}`,
        // Not limited per address: a provider calls from a few addresses, for every message of every campaign.
        config: { access: 'public', notRateLimited: true },
        schema: {
          operationId: `${method.toLowerCase()}Sms${name}Callback`,
          tags,
          summary:
            kind === 'status'
              ? `Take a provider's delivery status${method === 'GET' ? ' (parameters in the query)' : ''}`
              : `Take a provider's inbound message${method === 'GET' ? ' (parameters in the query)' : ''}`,
          description: DESCRIPTIONS[kind],
          params: SmsConnectionParamsSchema,
          response: {
            200: z.string().describe('Empty; for a Twilio inbound message, an empty TwiML `<Response/>` (text/xml).'),
            ...errorsOf(403, 404, 422),
            ...(method === 'POST' ? errorsOf(413) : {}),
          },
        },
        handler: handler(kind),
      });
  }
};
