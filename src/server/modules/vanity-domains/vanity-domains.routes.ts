import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorsOf, PageQuerySchema, VanityDomainInputSchema, VanityDomainSchema, dataOf, pageOf } from '../../../shared/contract';
import { callerOf } from '../../http/auth';
import { pageEnvelope, pageWindow } from '../../http/pagination';
import type { VanityDomainsService } from './vanity-domains.service';

const params = z.object({ vanity_domain_uuid: z.uuid().describe('Identifier of the vanity domain.') });

export const vanityDomainsRoutes: FastifyPluginAsyncZod<{ vanityDomains: VanityDomainsService; publicUrl: string }> = async (
  app,
  { vanityDomains, publicUrl },
) => {
  const tags = ['Vanity domains'];

  app.get(
    '/vanity-domains/',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'listVanityDomains',
        tags,
        summary: "List the team's link domains, newest first",
        description: "Includes the service's own link domain, which every team has.",
        querystring: PageQuerySchema,
        response: { 200: pageOf(VanityDomainSchema), ...errorsOf(401, 422) },
      },
    },
    async (request) => {
      const { items, total } = await vanityDomains.list(callerOf(request), pageWindow(request.query));
      return pageEnvelope(request, publicUrl, request.query, total, items);
    },
  );

  app.post(
    '/vanity-domains/',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'createVanityDomain',
        tags,
        summary: 'Add a vanity domain',
        description: 'Point the domain’s DNS at Herald; its tracked links are then `https://<domain>/<code>`.',
        body: VanityDomainInputSchema,
        response: { 201: dataOf(VanityDomainSchema), ...errorsOf(401, 422) },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await vanityDomains.create(callerOf(request), request.body) }),
  );

  app.get(
    '/vanity-domains/:vanity_domain_uuid',
    {
      config: { access: 'read', sharedRead: 'team' },
      schema: {
        operationId: 'showVanityDomain',
        tags,
        summary: 'Show a vanity domain',
        params,
        response: { 200: dataOf(VanityDomainSchema), ...errorsOf(401, 404) },
      },
    },
    async (request) => ({ data: await vanityDomains.show(callerOf(request), request.params.vanity_domain_uuid) }),
  );

  app.put(
    '/vanity-domains/:vanity_domain_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'updateVanityDomain',
        tags,
        summary: 'Change a vanity domain',
        description: "The service's own link domain cannot be changed (409).",
        params,
        body: VanityDomainInputSchema,
        response: { 200: dataOf(VanityDomainSchema), ...errorsOf(401, 404, 409, 422) },
      },
    },
    async (request) => ({ data: await vanityDomains.update(callerOf(request), request.params.vanity_domain_uuid, request.body) }),
  );

  app.delete(
    '/vanity-domains/:vanity_domain_uuid',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deleteVanityDomain',
        tags,
        summary: 'Delete a vanity domain',
        description: "Refused (409) for the service's own domain and for a domain that links use.",
        params,
        response: { 204: z.null().describe('Deleted.'), ...errorsOf(401, 404, 409) },
      },
    },
    async (request, reply) => {
      await vanityDomains.delete(callerOf(request), request.params.vanity_domain_uuid);
      return reply.code(204).send(null);
    },
  );
};
