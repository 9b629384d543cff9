/**
 * Roles, generated from the route table (issue 18, point 2).
 *
 * Every /api/2.0 route the router serves must appear in EXPECTED with the role it needs; a new route
 * without a line here fails the suite (and one without `config.access` stops the app from starting).
 * Then every route is called by an admin, an editor and a viewer of one team: a role below what the
 * route needs gets 403 in the house error shape and nothing changes (counted as the team's rows and
 * the audit of what each request found); a role that may call it gets anything but 403. Requests
 * that are let through carry an unknown uuid or an empty body, so they end in 404 or 422 and change
 * nothing either.
 *
 * Seen red: with the `ROLES_ALLOWED` check in http/auth.ts removed (the viewer's and editor's
 * writes came back 422 instead of 403), and with `POST /senders/` declared `edit` instead of `admin`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { Role } from '../../shared/contract';
import { normaliseRouteKey, routesOfDocument, routesOfRouter, type ApiRoute, type OpenApiDocument } from '../testing/api-routes';
import { createTestApp, type TestApp } from '../testing/test-app';
import type { Access } from './auth';

const API = '/api/2.0';
const t: TestApp = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
afterAll(() => t.close());
const ROUTES: ApiRoute[] = routesOfDocument((await t.request('GET', `${API}/openapi.json`)).json() as OpenApiDocument, `${API}/`);

/** What each route needs. Reports, any GET: `read`; team settings (senders, link domains, webhooks): `admin`. */
const EXPECTED: Record<string, Access> = {
  'POST /api/2.0/auth/login': 'public',
  'POST /api/2.0/auth/logout': 'self',
  'POST /api/2.0/auth/session': 'public',
  'DELETE /api/2.0/auth/session': 'self',
  'GET /api/2.0/users/me': 'read',
  'GET /api/2.0/users/switch/team/{team_uuid}': 'self',
  'PUT /api/2.0/users/me': 'self',
  'PUT /api/2.0/users/me/password': 'self',
  'POST /api/2.0/auth/password-reset': 'public',
  'POST /api/2.0/auth/password-reset/confirm': 'public',
  'GET /api/2.0/team/members': 'read',
  'GET /api/2.0/team/members/{user_uuid}': 'read',
  'PUT /api/2.0/team/members/{user_uuid}': 'admin',
  'DELETE /api/2.0/team/members/{user_uuid}': 'admin',
  'GET /api/2.0/team/invitations': 'admin',
  'POST /api/2.0/team/invitations': 'admin',
  'DELETE /api/2.0/team/invitations/{invitation_uuid}': 'admin',
  'GET /api/2.0/invitations/{token}': 'public',
  'POST /api/2.0/invitations/accept': 'public',
  'GET /api/2.0/team/settings': 'read',
  'PUT /api/2.0/team/settings': 'admin',
  'GET /api/2.0/team/signup-page': 'read',
  'PUT /api/2.0/team/signup-page': 'admin',
  'GET /api/2.0/audit-events': 'read',
  'GET /api/2.0/audit-events.csv': 'read',
  'GET /api/2.0/tokens': 'self',
  'POST /api/2.0/tokens': 'self',
  'DELETE /api/2.0/tokens/{token_uuid}': 'self',
  'GET /api/2.0/senders': 'read',
  'POST /api/2.0/senders': 'admin',
  'GET /api/2.0/senders/{sender_uuid}': 'read',
  'PUT /api/2.0/senders/{sender_uuid}': 'admin',
  'DELETE /api/2.0/senders/{sender_uuid}': 'admin',
  'GET /api/2.0/templates': 'read',
  'POST /api/2.0/templates': 'edit',
  'POST /api/2.0/templates/encoding': 'read',
  'GET /api/2.0/templates/starters': 'read',
  'GET /api/2.0/templates/{template_uuid}': 'read',
  'PUT /api/2.0/templates/{template_uuid}': 'edit',
  'DELETE /api/2.0/templates/{template_uuid}': 'edit',
  'GET /api/2.0/templates/{template_uuid}/preview': 'read',
  'GET /api/2.0/segments': 'read',
  'POST /api/2.0/segments': 'edit',
  'POST /api/2.0/segments/count': 'read',
  'GET /api/2.0/segments/{segment_uuid}': 'read',
  'PUT /api/2.0/segments/{segment_uuid}': 'edit',
  'DELETE /api/2.0/segments/{segment_uuid}': 'edit',
  'GET /api/2.0/segments/{segment_uuid}/count': 'read',
  'GET /api/2.0/segments/{segment_uuid}/contacts': 'read',
  'GET /api/2.0/segments/{segment_uuid}/revenue': 'read',
  'GET /api/2.0/links': 'read',
  'POST /api/2.0/links': 'edit',
  'GET /api/2.0/links/{link_uuid}': 'read',
  'PUT /api/2.0/links/{link_uuid}': 'edit',
  'DELETE /api/2.0/links/{link_uuid}': 'edit',
  'GET /api/2.0/vanity-domains': 'read',
  'POST /api/2.0/vanity-domains': 'admin',
  'GET /api/2.0/vanity-domains/{vanity_domain_uuid}': 'read',
  'PUT /api/2.0/vanity-domains/{vanity_domain_uuid}': 'admin',
  'DELETE /api/2.0/vanity-domains/{vanity_domain_uuid}': 'admin',
  'GET /api/2.0/webhooks': 'read',
  'POST /api/2.0/webhooks': 'admin',
  'GET /api/2.0/webhooks/{webhook_uuid}': 'read',
  'PUT /api/2.0/webhooks/{webhook_uuid}': 'admin',
  'DELETE /api/2.0/webhooks/{webhook_uuid}': 'admin',
  'POST /api/2.0/webhooks/{webhook_uuid}/rotate-secret': 'admin',
  'POST /api/2.0/webhooks/{webhook_uuid}/test': 'admin',
  'GET /api/2.0/webhooks/{webhook_uuid}/attempts': 'read',
  'GET /api/2.0/event-endpoints': 'read',
  'POST /api/2.0/event-endpoints': 'admin',
  'GET /api/2.0/event-endpoints/{endpoint_uuid}': 'read',
  'PUT /api/2.0/event-endpoints/{endpoint_uuid}': 'admin',
  'DELETE /api/2.0/event-endpoints/{endpoint_uuid}': 'admin',
  'POST /api/2.0/event-endpoints/{endpoint_uuid}/rotate-secret': 'admin',
  'POST /api/2.0/event-endpoints/{endpoint_uuid}/test': 'admin',
  'GET /api/2.0/event-endpoints/{endpoint_uuid}/deliveries': 'read',
  'GET /api/2.0/jobs': 'admin',
  'GET /api/2.0/event-endpoints/{endpoint_uuid}/deliveries/{delivery_uuid}': 'read',
  'POST /api/2.0/event-endpoints/{endpoint_uuid}/deliveries/{delivery_uuid}/redeliver': 'admin',
  'GET /api/2.0/sms-connections': 'admin',
  'POST /api/2.0/sms-connections': 'admin',
  'GET /api/2.0/sms-connections/{connection_uuid}': 'admin',
  'PUT /api/2.0/sms-connections/{connection_uuid}': 'admin',
  'DELETE /api/2.0/sms-connections/{connection_uuid}': 'admin',
  'POST /api/2.0/sms-connections/{connection_uuid}/test': 'admin',
  // The providers' callbacks: no token, the provider's signature is checked instead (sms-callbacks.test.ts).
  'POST /api/2.0/sms-connections/{connection_uuid}/status': 'public',
  'GET /api/2.0/sms-connections/{connection_uuid}/status': 'public',
  'POST /api/2.0/sms-connections/{connection_uuid}/inbound': 'public',
  'GET /api/2.0/sms-connections/{connection_uuid}/inbound': 'public',
  'GET /api/2.0/conversions': 'read',
  'POST /api/2.0/conversions': 'edit',
  'GET /api/2.0/conversions/{conversion_uuid}': 'read',
  'GET /api/2.0/shop-connections': 'admin',
  'POST /api/2.0/shop-connections': 'admin',
  'GET /api/2.0/shop-connections/{shop_connection_uuid}': 'admin',
  'PUT /api/2.0/shop-connections/{shop_connection_uuid}': 'admin',
  'DELETE /api/2.0/shop-connections/{shop_connection_uuid}': 'admin',
  'GET /api/2.0/sms-routes': 'admin',
  'PUT /api/2.0/sms-routes': 'admin',
  'GET /api/2.0/keywords': 'read',
  'POST /api/2.0/keywords': 'edit',
  'GET /api/2.0/keywords/{keyword_uuid}': 'read',
  'PUT /api/2.0/keywords/{keyword_uuid}': 'edit',
  'DELETE /api/2.0/keywords/{keyword_uuid}': 'edit',
  'GET /api/2.0/flows': 'read',
  'POST /api/2.0/flows': 'edit',
  'GET /api/2.0/flows/{flow_uuid}': 'read',
  'PUT /api/2.0/flows/{flow_uuid}': 'edit',
  'DELETE /api/2.0/flows/{flow_uuid}': 'edit',
  'POST /api/2.0/flows/{flow_uuid}/runs': 'edit',
  'GET /api/2.0/flows/{flow_uuid}/runs': 'read',
  'GET /api/2.0/contacts/{phone_number}/flow-runs': 'read',
  'GET /api/2.0/contact-groups': 'read',
  'POST /api/2.0/contact-groups': 'edit',
  'GET /api/2.0/contact-groups/{contact_group_uuid}': 'read',
  'PUT /api/2.0/contact-groups/{contact_group_uuid}': 'edit',
  'DELETE /api/2.0/contact-groups/{contact_group_uuid}': 'edit',
  'GET /api/2.0/contact-groups/{contact_group_uuid}/contacts': 'read',
  'PUT /api/2.0/contact-groups/{contact_group_uuid}/add-contacts': 'edit',
  'PUT /api/2.0/contact-groups/{contact_group_uuid}/remove-contacts': 'edit',
  'PUT /api/2.0/contact-groups/{contact_group_uuid}/flush': 'edit',
  'POST /api/2.0/contact-groups/bulk-contacts': 'edit',
  'POST /api/2.0/contact-groups/unique-contacts': 'read',
  'GET /api/2.0/contact-groups/{contact_group_uuid}/export.csv': 'read',
  'GET /api/2.0/contacts': 'read',
  'GET /api/2.0/contacts/{phone_number}': 'read',
  'GET /api/2.0/contacts/{phone_number}/export': 'admin',
  'GET /api/2.0/contacts/{phone_number}/consent': 'read',
  'DELETE /api/2.0/contacts/{phone_number}': 'admin',
  'GET /api/2.0/overview': 'read',
  'POST /api/2.0/contact-groups/{contact_group_uuid}/imports': 'edit',
  'POST /api/2.0/contact-groups/{contact_group_uuid}/imports/preview': 'edit',
  'GET /api/2.0/contact-groups/{contact_group_uuid}/imports': 'read',
  'GET /api/2.0/contact-imports/{import_uuid}': 'read',
  'GET /api/2.0/contact-imports/{import_uuid}/errors': 'read',
  'GET /api/2.0/contact-imports/{import_uuid}/errors.csv': 'read',
  'GET /api/2.0/inbound-messages': 'read',
  'POST /api/2.0/inbound-messages': 'edit',
  'GET /api/2.0/opt-out-events': 'read',
  'GET /api/2.0/conversations': 'read',
  'GET /api/2.0/conversations/{phone_number}': 'read',
  'PUT /api/2.0/conversations/{phone_number}': 'edit',
  'POST /api/2.0/conversations/{phone_number}/messages': 'edit',
  'GET /api/2.0/saved-replies': 'read',
  'POST /api/2.0/saved-replies': 'edit',
  'GET /api/2.0/saved-replies/{saved_reply_uuid}': 'read',
  'PUT /api/2.0/saved-replies/{saved_reply_uuid}': 'edit',
  'DELETE /api/2.0/saved-replies/{saved_reply_uuid}': 'edit',
  'GET /api/2.0/campaigns': 'read',
  'POST /api/2.0/campaigns': 'edit',
  'POST /api/2.0/campaigns/send-test': 'edit',
  'GET /api/2.0/campaigns/{campaign_uuid}': 'read',
  'PUT /api/2.0/campaigns/{campaign_uuid}': 'edit',
  'DELETE /api/2.0/campaigns/{campaign_uuid}': 'edit',
  'GET /api/2.0/campaigns/{campaign_uuid}/summary': 'read',
  'PUT /api/2.0/campaigns/{campaign_uuid}/toggle-paused-status': 'edit',
  'PUT /api/2.0/campaigns/{campaign_uuid}/stop': 'edit',
  'POST /api/2.0/campaigns/{campaign_uuid}/ab-test/winner': 'edit',
  'POST /api/2.0/campaigns/{campaign_uuid}/duplicate': 'edit',
  'POST /api/2.0/campaigns/{campaign_uuid}/resend-unreached': 'edit',
  'GET /api/2.0/campaigns/{campaign_uuid}/review': 'read',
  'POST /api/2.0/campaigns/preview': 'edit',
  'POST /api/2.0/campaigns/{campaign_uuid}/test-sends': 'edit',
  'PUT /api/2.0/campaigns/{campaign_uuid}/approve': 'admin',
  'PUT /api/2.0/campaigns/{campaign_uuid}/reject': 'admin',
  'GET /api/2.0/report-jobs': 'read',
  'GET /api/2.0/report-jobs/{job_uuid}': 'read',
  'GET /api/2.0/report-downloads/{job_uuid}': 'public',
  'GET /api/2.0/reporting/summaries': 'read',
  'GET /api/2.0/reporting/{campaign_uuid}/summary': 'read',
  ...Object.fromEntries(
    ['delivery', 'alt_delivery', 'recipient', 'sent', 'unsent', 'clicks'].flatMap((type) => [
      [`GET /api/2.0/reporting/{campaign_uuid}/${type}`, 'read'],
      [`GET /api/2.0/reporting/{campaign_uuid}/${type}.csv`, 'read'],
      [`GET /api/2.0/reporting/{campaign_uuid}/${type}.ndjson`, 'read'],
      [`POST /api/2.0/reporting/{campaign_uuid}/${type}`, 'report'],
    ]),
  ),
};

/** Routes the router serves that the OpenAPI document hides. */
const HIDDEN: Record<string, Access> = { 'GET /api/2.0/openapi.json': 'public' };

const ALLOWED: Record<Exclude<Access, 'public'>, Role[]> = {
  self: ['admin', 'editor', 'viewer'],
  read: ['admin', 'editor', 'viewer'],
  report: ['admin', 'editor', 'viewer'],
  edit: ['admin', 'editor'],
  admin: ['admin'],
};

// One team, one member of each role, each with a token in that team.
const admin = await t.user({ team: 'Roles Co' });
const team = (await t.services.teamsRepository.findByUuid(admin.teamUuid))!;
const members: Record<Role, number> = { admin: (await t.services.usersRepository.findByEmail(admin.email))!.id, editor: 0, viewer: 0 };
for (const role of ['editor', 'viewer'] as const) {
  const member = await t.user({ team: `Own team of the ${role}` });
  await t.services.users.addToTeam(member.email, 'Roles Co', role);
  members[role] = (await t.services.usersRepository.findByEmail(member.email))!.id;
}
const tokenOf = async (role: Role, kind: 'personal' | 'session' = 'personal') =>
  (await t.services.tokens.issue(members[role], kind, role, { teamId: team.id })).token;
const tokens: Record<Role, string> = { admin: await tokenOf('admin'), editor: await tokenOf('editor'), viewer: await tokenOf('viewer') };

/** The route's URL with unknown uuids: a let-through call finds nothing (404) rather than changing something. */
const urlOf = (route: ApiRoute) => route.path.replace(/\{[^}]+\}/g, () => randomUUID());

/** What the team holds, as its counters and rows see it: unchanged by every call of this test. */
async function snapshot(): Promise<string> {
  const { rows } = await t.database.pool.query(
    `SELECT (SELECT json_agg(row_to_json(c) ORDER BY resource) FROM team_row_counts c WHERE team_id = (SELECT id FROM teams WHERE uuid = $1)) AS counts,
            (SELECT count(*) FROM api_tokens WHERE revoked_at IS NULL) AS tokens,
            (SELECT count(*) FROM report_jobs) AS jobs, (SELECT count(*) FROM inbound_messages) AS inbound`,
    [admin.teamUuid],
  );
  return JSON.stringify(rows[0]);
}

describe('the route table', () => {
  it('has a rule here for every /api/2.0 route the router serves', () => {
    const known = new Set([...Object.keys(EXPECTED), ...Object.keys(HIDDEN)].map(normaliseRouteKey));
    const served = routesOfRouter(t.app).filter((key) => key.split(' ')[1]!.startsWith(`${API}/`));
    expect(served.length).toBeGreaterThan(60);
    expect(served.filter((key) => !known.has(key))).toEqual([]);
    expect(ROUTES.filter((route) => !(route.key in EXPECTED)).map((route) => route.key)).toEqual([]);
  });
});

describe.each(['viewer', 'editor', 'admin'] as const)('a %s', (role) => {
  const guarded = ROUTES.filter(
    (route) => EXPECTED[route.key] !== 'public' && route.key !== 'POST /api/2.0/auth/logout' && route.key !== 'DELETE /api/2.0/auth/session',
  );

  it.each(guarded.map((route) => [route.key, route] as const))('%s', async (_key, route) => {
    const access = EXPECTED[route.key] as Exclude<Access, 'public'>;
    const before = await snapshot();
    const response = await t.request(route.method, urlOf(route), { token: tokens[role], body: route.hasBody ? {} : undefined });
    if (ALLOWED[access].includes(role)) {
      expect(response.statusCode, response.body).not.toBe(403);
    } else {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toEqual({ error: { code: 403, http_code: 403, message: expect.any(String), request_id: expect.any(String) } });
    }
    // GETs of an unknown uuid and bodies that do not validate change nothing, allowed or not.
    expect(await snapshot()).toBe(before);
  });
});

describe('signing out', () => {
  it.each(['viewer', 'editor', 'admin'] as const)('is open to a %s, for the session it is called with', async (role) => {
    const session = await tokenOf(role, 'session');
    expect((await t.request('GET', `${API}/users/me`, { token: session })).json().data.current_team.role).toBe(role);
    expect((await t.request('POST', `${API}/auth/logout`, { token: session })).statusCode).toBe(204);
    expect((await t.request('GET', `${API}/users/me`, { token: session })).statusCode).toBe(401);
    expect((await t.request('GET', `${API}/users/me`, { token: tokens[role] })).statusCode).toBe(200);
  });
});
