import { parse as parseQueryString } from 'node:querystring';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SIGNUP_SLUG_PATTERN } from '../../../shared/contract';
import { SIGNUP_PAGE_POLICY, signupFormPage, signupNotFoundPage, signupThanksPage, signupTooManyPage } from './signup-page.html';
import type { SignupForm, SignupPageService } from './signup-page.service';
import type { PublicSignupPageRow } from './signup-page.repository';

/** A form post is a few fields: anything larger is not one (413). */
const FORM_BODY_LIMIT = 16 * 1024;
const FIELDS = ['country', 'phone_number', 'first_name', 'website', 'form_token'] as const;

type SlugRequest = FastifyRequest<{ Params: { slug: string } }>;

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).header('Content-Security-Policy', SIGNUP_PAGE_POLICY).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);

/** The form's fields as strings (a repeated field: its first value; a missing one: empty). */
function formOf(body: unknown): SignupForm {
  const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const value = (name: (typeof FIELDS)[number]) => {
    const raw = fields[name];
    const first = Array.isArray(raw) ? raw[0] : raw;
    return typeof first === 'string' ? first : '';
  };
  return Object.fromEntries(FIELDS.map((name) => [name, value(name)])) as SignupForm;
}

/**
 * The hosted sign-up page, public and outside /api/2.0 like the short links: `GET /join/{slug}` (the
 * form), `POST /join/{slug}` (a sign-up: redirected to the thanks page, or the form again with its
 * errors), `GET /join/{slug}/thanks`. Served on the service's own host and on the team's link
 * domains (their DNS already points here). Server-rendered HTML without script, under a policy of
 * its own (signup-page.html.ts). Its own plugin: it reads form bodies, which the API refuses (415).
 */
export const signupPagePublicRoutes: FastifyPluginAsync<{ signupPage: SignupPageService }> = async (app: FastifyInstance, { signupPage }) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) =>
    done(null, parseQueryString(body as string)),
  );

  const hostOf = (request: FastifyRequest) => request.hostname.replace(/:\d+$/, '').toLowerCase();
  const find = async (request: SlugRequest): Promise<PublicSignupPageRow | undefined> =>
    SIGNUP_SLUG_PATTERN.test(request.params.slug) ? signupPage.publicPage(request.params.slug, hostOf(request)) : undefined;
  const form = (page: PublicSignupPageRow, extra: { values?: Partial<SignupForm>; errors?: Parameters<typeof signupFormPage>[0]['errors'] } = {}) =>
    signupFormPage({
      slug: page.slug,
      heading: page.heading,
      teamName: page.teamName,
      consentText: page.consentText,
      frequencyText: page.frequencyText,
      askFirstName: page.askFirstName,
      country: extra.values?.country || signupPage.defaultCountryOf(page),
      token: signupPage.formToken(page),
      ...extra,
    });

  app.get<{ Params: { slug: string } }>('/join/:slug', { schema: { hide: true } }, async (request, reply) => {
    const page = await find(request);
    return page ? html(reply, 200, form(page)) : html(reply, 404, signupNotFoundPage());
  });

  app.post<{ Params: { slug: string } }>('/join/:slug', { schema: { hide: true } }, async (request, reply) => {
    const page = await find(request);
    if (!page) return html(reply, 404, signupNotFoundPage());
    const outcome = await signupPage.submit(page, formOf(request.body), { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' });
    switch (outcome.result) {
      case 'rate_limited':
        return html(reply.header('Retry-After', String(outcome.retryAfterSeconds)), 429, signupTooManyPage(outcome.retryAfterSeconds));
      case 'invalid':
        return html(reply, 422, form(page, { values: outcome.form, errors: outcome.errors }));
      default:
        // Post, redirect, get: a reload of the thanks page posts nothing again.
        return reply.header('Cache-Control', 'no-store').redirect(`/join/${page.slug}/thanks`, 303);
    }
  });

  app.get<{ Params: { slug: string } }>('/join/:slug/thanks', { schema: { hide: true } }, async (request, reply) => {
    const page = await find(request);
    return page ? html(reply, 200, signupThanksPage({ slug: page.slug })) : html(reply, 404, signupNotFoundPage());
  });
};
