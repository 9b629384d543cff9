/**
 * Team isolation, generated from the route table (issue 8, point 1).
 *
 * The routes come from the served OpenAPI document (cross-checked against the Fastify router, so a
 * route hidden from the document cannot slip past). Team A owns one of every resource; team B then
 * calls every route that names a resource with A's identifiers and must get 404 (no existence
 * leak, docs/api-conventions.md, Teams), every list without finding A's uuids, and every
 * body field that references a resource with A's uuids and must get 422 naming the field.
 *
 * A new route cannot escape: a path parameter with no source in PATH_PARAMETERS, a body with no
 * entry in REQUEST_BODIES, or a uuid-like body field with no case in BODY_REFERENCES fails the suite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FORMATS, REPORT_TYPES } from '../../shared/contract';
import { normaliseRouteKey, routesOfDocument, routesOfRouter, type ApiMethod, type ApiRoute, type OpenApiDocument } from '../testing/api-routes';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../testing/test-app';
import { startWebhookReceiver } from '../testing/webhook-receiver';

const API = '/api/2.0';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

// A fixed clock: nothing A owns changes between the two readings on its own (campaign locks, timestamps).
const clock = createTestClock('2026-06-01T09:00:00Z');
// The route table is needed to generate the tests, so the app is built while the file is collected.
const t: TestApp = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000' }, { clock });
const receiver = await startWebhookReceiver();
const ROUTES: ApiRoute[] = routesOfDocument((await t.request('GET', `${API}/openapi.json`)).json() as OpenApiDocument, `${API}/`);

type TeamA = {
  user: TestUser;
  token: string;
  sender: string;
  template: string;
  vanityDomain: string;
  link: string;
  webhook: string;
  eventEndpoint: string;
  eventDelivery: string;
  smsConnection: string;
  shopConnection: string;
  conversion: string;
  group: string;
  keyword: string;
  importGroup: string;
  import: string;
  campaign: string;
  segment: string;
  job: string;
  inbound: string;
  savedReply: string;
  invitation: string;
  invitationSecret: string;
  flow: string;
};
type TeamB = { user: TestUser; template: string; group: string; vanityDomain: string; link: string; keyword: string; campaign: string; segment: string };
let a: TeamA;
let b: TeamB;

/** Which of team A's identifiers fills each path parameter. A parameter not listed fails the suite. */
const PATH_PARAMETERS: Record<string, (team: TeamA) => string> = {
  team_uuid: (team) => team.user.teamUuid,
  token_uuid: (team) => team.token,
  sender_uuid: (team) => team.sender,
  template_uuid: (team) => team.template,
  link_uuid: (team) => team.link,
  vanity_domain_uuid: (team) => team.vanityDomain,
  webhook_uuid: (team) => team.webhook,
  endpoint_uuid: (team) => team.eventEndpoint,
  delivery_uuid: (team) => team.eventDelivery,
  connection_uuid: (team) => team.smsConnection,
  shop_connection_uuid: (team) => team.shopConnection,
  conversion_uuid: (team) => team.conversion,
  keyword_uuid: (team) => team.keyword,
  contact_group_uuid: (team) => team.group,
  import_uuid: (team) => team.import,
  campaign_uuid: (team) => team.campaign,
  segment_uuid: (team) => team.segment,
  flow_uuid: (team) => team.flow,
  job_uuid: (team) => team.job,
  saved_reply_uuid: (team) => team.savedReply,
  user_uuid: (team) => team.user.userUuid,
  invitation_uuid: (team) => team.invitation,
  token: (team) => team.invitationSecret,
  // A number A holds (in its group, with custom fields) and B does not.
  phone_number: () => '447700900401',
};

/** Routes with a path parameter that are not scoped by the caller's team, and why. */
const EXEMPT_FROM_404: Record<string, string> = {
  [`GET ${API}/report-downloads/{job_uuid}`]:
    'Public: the signed link e-mailed with a report; it needs no token and is authorised by its signature, not by a team (a forged signature is checked below to be 403).',
  [`GET ${API}/invitations/{token}`]:
    'Public: the single-use link e-mailed with an invitation (256 random bits); whoever holds it may see what it invites to, whatever their team.',
  [`POST ${API}/sms-connections/{connection_uuid}/status`]:
    "Public: a provider's callback to a connection, authorised by the provider's signature checked with that connection's credentials, not by a team (forged, unsigned and cross-connection callbacks are 403 or change nothing: sms-callbacks.test.ts).",
  [`GET ${API}/sms-connections/{connection_uuid}/status`]:
    "Public: a provider's callback to a connection, authorised by the provider's signature checked with that connection's credentials, not by a team (forged, unsigned and cross-connection callbacks are 403 or change nothing: sms-callbacks.test.ts).",
  [`POST ${API}/sms-connections/{connection_uuid}/inbound`]:
    "Public: a provider's callback to a connection, authorised by the provider's signature checked with that connection's credentials, not by a team (forged, unsigned and cross-connection callbacks are 403 or change nothing: sms-callbacks.test.ts).",
  [`GET ${API}/sms-connections/{connection_uuid}/inbound`]:
    "Public: a provider's callback to a connection, authorised by the provider's signature checked with that connection's credentials, not by a team (forged, unsigned and cross-connection callbacks are 403 or change nothing: sms-callbacks.test.ts).",
};

/** GET routes without a path parameter that do not answer the list envelope (still searched for A's uuids). */
const NOT_A_LIST: Record<string, string> = {
  [`GET ${API}/users/me`]: "The caller's own profile and teams, not a list.",
  [`GET ${API}/team/settings`]: "The caller's team's settings, not a list.",
  [`GET ${API}/team/signup-page`]: "The caller's team's sign-up page, not a list.",
  [`GET ${API}/audit-events.csv`]: 'The audit log as CSV: searched for A’s uuids like the lists, but not a JSON envelope.',
  [`GET ${API}/overview`]: "The caller's team's figures and latest campaigns, imports and reports: one object, not a list.",
  [`GET ${API}/sms-routes`]: "The caller's team's routes: one object `{routes}`, not a page.",
  [`GET ${API}/templates/starters`]: "Herald's starter templates: the same short list for every team, not a page.",
};

/** Routes under /api/2.0 the router serves but the OpenAPI document hides, and why they need no isolation test. */
const HIDDEN_ROUTES: Record<string, string> = {
  [`GET ${API}/openapi.json`]: 'The API description itself: public, holds no team data.',
};

/** GET routes A's snapshot leaves out because they change state (a switch; exports, which the audit log records). */
const STATEFUL_GETS = new Set([
  `GET ${API}/users/switch/team/{team_uuid}`,
  `GET ${API}/contact-groups/{contact_group_uuid}/export.csv`,
  `GET ${API}/contacts/{phone_number}/export`,
  ...REPORT_TYPES.flatMap((type) => REPORT_FORMATS.map((format) => `GET ${API}/reporting/{campaign_uuid}/${type}.${format}`)),
]);

const campaignBody = (team: { template: string; group: string }, overrides: Record<string, unknown> = {}) => ({
  name: 'Summer sale',
  sender: 'Acme',
  scheduled_send_date: '2026-06-02 09:00:00',
  expiry_date: '2026-06-03 09:00:00',
  included_contact_groups: [team.group],
  excluded_contact_groups: [],
  template_uuid: team.template,
  ...overrides,
});

const signupPageBody = (slug: string, group: string) => ({
  slug,
  enabled: true,
  heading: 'Texts from us',
  consent_text: 'I agree to receive marketing texts.',
  frequency_text: 'Up to 4 msgs/week',
  group_uuid: group,
});

const segmentBody = (group: string) => ({ name: 'Buyers', match: 'all', conditions: [{ type: 'group', op: 'in', group_uuid: group }] });

type Payload = { body: unknown; headers?: Record<string, string> };
const CSV = { 'content-type': 'text/csv' };

/** A valid body for team B's call of each route that takes one (so the answer is about the resource, not the body). */
const REQUEST_BODIES: Record<string, () => Payload> = {
  [`PUT ${API}/senders/{sender_uuid}`]: () => ({ body: { sender: 'Renamed' } }),
  [`PUT ${API}/templates/{template_uuid}`]: () => ({ body: { name: 'Renamed', body: 'Hello', sender: 'Bravo' } }),
  [`PUT ${API}/links/{link_uuid}`]: () => ({
    body: { vanity_domain_uuid: b.vanityDomain, template_uuid: b.template, name: 'Shop', destination: 'https://bravo.example.com/' },
  }),
  [`PUT ${API}/vanity-domains/{vanity_domain_uuid}`]: () => ({ body: { domain: 'go.bravo-team.com' } }),
  [`PUT ${API}/webhooks/{webhook_uuid}`]: () => ({ body: { name: 'Renamed' } }),
  [`PUT ${API}/event-endpoints/{endpoint_uuid}`]: () => ({ body: { enabled: false } }),
  [`PUT ${API}/sms-connections/{connection_uuid}`]: () => ({ body: { enabled: false } }),
  [`PUT ${API}/shop-connections/{shop_connection_uuid}`]: () => ({ body: { name: 'Renamed' } }),
  [`POST ${API}/sms-connections/{connection_uuid}/test`]: () => ({ body: { phone_number: '+447700900123' } }),
  [`PUT ${API}/keywords/{keyword_uuid}`]: () => ({ body: { message: 'Renamed' } }),
  [`PUT ${API}/contact-groups/{contact_group_uuid}`]: () => ({ body: { name: 'Renamed' } }),
  [`PUT ${API}/contact-groups/{contact_group_uuid}/add-contacts`]: () => ({ body: { contacts: [{ phone_number: '07700900999' }] } }),
  [`PUT ${API}/contact-groups/{contact_group_uuid}/remove-contacts`]: () => ({ body: { phone_numbers: ['447700900401'] } }),
  [`POST ${API}/contact-groups/{contact_group_uuid}/imports`]: () => ({ body: 'phone_number\n07700900998\n', headers: CSV }),
  [`POST ${API}/contact-groups/{contact_group_uuid}/imports/preview`]: () => ({ body: 'phone_number\n07700900998\n', headers: CSV }),
  [`PUT ${API}/campaigns/{campaign_uuid}`]: () => ({ body: campaignBody(b) }),
  [`PUT ${API}/campaigns/{campaign_uuid}/approve`]: () => ({ body: { comment: 'Fine' } }),
  [`POST ${API}/campaigns/{campaign_uuid}/ab-test/winner`]: () => ({ body: { variant: 'A' } }),
  [`PUT ${API}/campaigns/{campaign_uuid}/reject`]: () => ({ body: { comment: 'No' } }),
  [`POST ${API}/campaigns/{campaign_uuid}/test-sends`]: () => ({ body: { phone_numbers: ['07700900997'] } }),
  [`PUT ${API}/team/members/{user_uuid}`]: () => ({ body: { role: 'viewer' } }),
  [`PUT ${API}/segments/{segment_uuid}`]: () => ({ body: segmentBody(b.group) }),
  [`PUT ${API}/saved-replies/{saved_reply_uuid}`]: () => ({ body: { name: 'Renamed' } }),
  [`PUT ${API}/conversations/{phone_number}`]: () => ({ body: { status: 'closed' } }),
  [`POST ${API}/conversations/{phone_number}/messages`]: () => ({ body: { body: 'Hello from Bravo' } }),
  [`PUT ${API}/flows/{flow_uuid}`]: () => ({ body: { name: 'Renamed' } }),
  [`POST ${API}/flows/{flow_uuid}/runs`]: () => ({ body: { phone_number: '07700900996' } }),
};

/** Body fields whose name says they reference a resource: each must have a case in BODY_REFERENCES. */
const REFERENCE_FIELD = /uuid|_groups$/;

type Reference = { route: string; field: string; url?: () => string; body: () => unknown };
const keywordBody = (word: string, overrides: Record<string, unknown>) => ({ keyword: word, message: '', ...overrides });
const linkBody = (overrides: Record<string, unknown>) => ({
  vanity_domain_uuid: b.vanityDomain,
  template_uuid: b.template,
  name: 'Other',
  destination: 'https://bravo.example.com/x',
  ...overrides,
});

/** Team B naming one of A's resources in a body: 422 naming the field, nothing created or changed. */
const BODY_REFERENCES: Reference[] = [
  ...(['POST', 'PUT', 'PREVIEW'] as const).flatMap((method) => {
    const route = { POST: `POST ${API}/campaigns`, PUT: `PUT ${API}/campaigns/{campaign_uuid}`, PREVIEW: `POST ${API}/campaigns/preview` }[method];
    const url = method === 'PUT' ? () => `${API}/campaigns/${b.campaign}` : undefined;
    return [
      { route, url, field: 'template_uuid', body: () => campaignBody(b, { template_uuid: a.template }) },
      { route, url, field: 'included_contact_groups', body: () => campaignBody(b, { included_contact_groups: [a.group] }) },
      { route, url, field: 'excluded_contact_groups', body: () => campaignBody(b, { excluded_contact_groups: [a.group] }) },
      { route, url, field: 'included_segments', body: () => campaignBody(b, { included_segments: [a.segment] }) },
      { route, url, field: 'excluded_segments', body: () => campaignBody(b, { excluded_segments: [a.segment] }) },
    ];
  }),
  {
    route: `POST ${API}/campaigns/send-test`,
    field: 'template_uuid',
    body: () => ({
      name: 'Test',
      sender: 'Acme',
      scheduled_send_date: '2026-06-02 09:00:00',
      expiry_date: '2026-06-03 09:00:00',
      template_uuid: a.template,
      contact_number: '07700900777',
    }),
  },
  { route: `POST ${API}/templates/encoding`, field: 'template_uuid', body: () => ({ body: 'Hi ::Shop::', template_uuid: a.template }) },
  { route: `POST ${API}/templates/encoding`, field: 'contact_groups', body: () => ({ body: 'Hi {{name}}', contact_groups: [a.group] }) },
  {
    route: `POST ${API}/keywords`,
    field: 'contact_groups_uuid',
    body: () => keywordBody('BRAVOGROUP', { add_contact_to_group: true, contact_groups_uuid: [a.group] }),
  },
  { route: `POST ${API}/keywords`, field: 'webhooks_uuid', body: () => keywordBody('BRAVOHOOK', { call_webhook: true, webhooks_uuid: [a.webhook] }) },
  {
    route: `PUT ${API}/keywords/{keyword_uuid}`,
    url: () => `${API}/keywords/${b.keyword}`,
    field: 'contact_groups_uuid',
    body: () => ({ add_contact_to_group: true, contact_groups_uuid: [a.group] }),
  },
  {
    route: `PUT ${API}/keywords/{keyword_uuid}`,
    url: () => `${API}/keywords/${b.keyword}`,
    field: 'webhooks_uuid',
    body: () => ({ call_webhook: true, webhooks_uuid: [a.webhook] }),
  },
  { route: `POST ${API}/links`, field: 'template_uuid', body: () => linkBody({ template_uuid: a.template }) },
  { route: `POST ${API}/links`, field: 'vanity_domain_uuid', body: () => linkBody({ vanity_domain_uuid: a.vanityDomain }) },
  { route: `PUT ${API}/links/{link_uuid}`, url: () => `${API}/links/${b.link}`, field: 'template_uuid', body: () => linkBody({ template_uuid: a.template }) },
  {
    route: `PUT ${API}/links/{link_uuid}`,
    url: () => `${API}/links/${b.link}`,
    field: 'vanity_domain_uuid',
    body: () => linkBody({ vanity_domain_uuid: a.vanityDomain }),
  },
  {
    route: `PUT ${API}/sms-routes`,
    field: 'routes',
    body: () => ({ routes: [{ countries: ['GB'], connections: [a.smsConnection] }] }),
  },
  { route: `PUT ${API}/team/signup-page`, field: 'group_uuid', body: () => signupPageBody('bravo-texts', a.group) },
  // A segment's conditions naming A's group or campaign: 422 naming the condition (conditions.0.group_uuid).
  { route: `POST ${API}/segments`, field: 'conditions', body: () => segmentBody(a.group) },
  {
    route: `POST ${API}/segments/count`,
    field: 'conditions',
    body: () => ({ match: 'any', conditions: [{ type: 'event', event: 'received', campaign_uuid: a.campaign }] }),
  },
  { route: `PUT ${API}/segments/{segment_uuid}`, url: () => `${API}/segments/${b.segment}`, field: 'conditions', body: () => segmentBody(a.group) },
  // B assigning its own conversation to A's member: 422 naming the field.
  {
    route: `PUT ${API}/conversations/{phone_number}`,
    url: () => `${API}/conversations/447700900502`,
    field: 'assignee_uuid',
    body: () => ({ assignee_uuid: a.user.userUuid }),
  },
  // A flow's trigger or steps naming A's group or template: 422 naming it (trigger.group_uuid, steps.0.template_uuid).
  { route: `POST ${API}/flows`, field: 'trigger', body: () => ({ name: 'B', trigger: { type: 'group_joined', group_uuid: a.group }, steps: [] }) },
  { route: `POST ${API}/flows`, field: 'steps', body: () => ({ name: 'B', trigger: { type: 'api' }, steps: [{ type: 'send', template_uuid: a.template }] }) },
  { route: `POST ${API}/contact-groups/unique-contacts`, field: 'included_contact_group_uuids', body: () => ({ included_contact_group_uuids: [a.group] }) },
  {
    route: `POST ${API}/contact-groups/unique-contacts`,
    field: 'excluded_contact_group_uuids',
    body: () => ({ included_contact_group_uuids: [b.group], excluded_contact_group_uuids: [a.group] }),
  },
];

const withParams = ROUTES.filter((route) => route.pathParams.length > 0);
// Deletions last: a leaking DELETE must not hide what the other routes would have answered.
const GUARDED = withParams.filter((route) => !(route.key in EXEMPT_FROM_404)).sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
const LISTS = ROUTES.filter((route) => route.method === 'GET' && route.pathParams.length === 0);

function fill(route: ApiRoute, team: TeamA): string {
  return route.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const source = PATH_PARAMETERS[name];
    if (!source) throw new Error(`${route.key}: no source for the path parameter "${name}"; add it to PATH_PARAMETERS.`);
    return source(team);
  });
}

async function call(user: TestUser, method: ApiMethod, url: string, payload: Payload = { body: undefined }) {
  return t.request(method, url, { token: user.token, body: payload.body, headers: payload.headers });
}

async function created(user: TestUser, url: string, body: unknown): Promise<Record<string, string>> {
  const response = await call(user, 'POST', `${API}${url}`, { body });
  if (response.statusCode !== 201) throw new Error(`POST ${url}: ${response.statusCode} ${response.body}`);
  return response.json().data;
}

async function ok(user: TestUser, method: ApiMethod, url: string, payload?: Payload) {
  const response = await call(user, method, `${API}${url}`, payload);
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response;
}

async function until(what: string, condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`Timed out waiting for ${what}.`);
}

// A token's last use is recorded as it is used (database time): the reader's own token changes by reading.
const redact = (text: string) => text.replace(/"last_used_at":"[^"]*"/g, '"last_used_at":"(redacted)"');

/** Everything A can read: every GET route filled with A's identifiers, and every list. */
async function snapshotOfA(): Promise<Record<string, { status: number; body: string }>> {
  const snapshot: Record<string, { status: number; body: string }> = {};
  for (const route of ROUTES) {
    if (route.method !== 'GET' || route.key in EXEMPT_FROM_404 || STATEFUL_GETS.has(route.key)) continue;
    const url = `${fill(route, a)}?per_page=100`;
    const response = await call(a.user, 'GET', url);
    snapshot[url] = { status: response.statusCode, body: redact(response.body) };
  }
  return snapshot;
}

/** Every list of a team, as text: what B's refused requests must leave as it was. */
async function listsOf(user: TestUser): Promise<Record<string, string>> {
  const lists: Record<string, string> = {};
  for (const route of LISTS) lists[route.path] = redact((await call(user, 'GET', `${route.path}?per_page=100`)).body);
  return lists;
}

let snapshotBefore: Record<string, { status: number; body: string }>;
let uuidsOfA: Set<string>;

beforeAll(async () => {
  const owner = await t.user({ email: 'alpha@herald.test' });
  const sender = (await created(owner, '/senders/', { sender: 'Alpha' })).uuid!;
  const template = (await created(owner, '/templates/', { name: 'A sale', body: 'Hi {{first_name}}, 20% off: ::Shop::', sender: 'Acme' })).uuid!;
  const vanityDomain = (await created(owner, '/vanity-domains/', { domain: 'go.alpha-team.com' })).uuid!;
  const link = (
    await created(owner, '/links/', { vanity_domain_uuid: vanityDomain, template_uuid: template, name: 'Shop', destination: 'https://alpha.example.com/sale' })
  ).uuid!;
  const webhook = (await created(owner, '/webhooks/', { name: 'CRM', url: receiver.url, headers: { 'X-Api-Key': 'alpha' } })).uuid!;
  const eventEndpoint = (await created(owner, '/event-endpoints/', { url: receiver.url, events: ['inbound.received'], headers: { 'X-Api-Key': 'alpha' } }))
    .uuid!;
  const eventDelivery = (await ok(owner, 'POST', `/event-endpoints/${eventEndpoint}/test`)).json().data.uuid;
  // Pointed at a port nothing listens on: a test send of A's connection could reach no one.
  const smsConnection = (
    await created(owner, '/sms-connections/', {
      name: 'Alpha Twilio',
      provider: 'twilio',
      base_url: 'http://127.0.0.1:9',
      credentials: { account_sid: 'AC00000000000000000000000000000000', auth_token: 'alpha-token-0000' },
      senders: ['+447700900001'],
    })
  ).uuid!;
  // A's routes name its connection: B's own routes must not show them.
  await ok(owner, 'PUT', '/sms-routes', { body: { routes: [{ countries: ['GB', 'IE'], connections: [smsConnection], sender: '+447700900001' }] } });
  const group = (await created(owner, '/contact-groups/', { name: 'Customers', description: 'Alpha customers', headers: ['first_name'] })).uuid!;
  await ok(owner, 'PUT', `/contact-groups/${group}/add-contacts`, {
    body: {
      contacts: [
        { phone_number: '07700900401', custom_fields: { first_name: 'Ada' } },
        { phone_number: '07700900402', custom_fields: { first_name: 'Bo' } },
      ],
    },
  });
  const keyword = (
    await created(owner, '/keywords/', {
      keyword: 'ALPHA',
      message: 'Welcome!',
      add_contact_to_group: true,
      contact_groups_uuid: [group],
      call_webhook: true,
      webhooks_uuid: [webhook],
    })
  ).uuid!;
  const importGroup = (await created(owner, '/contact-groups/', { name: 'Imported' })).uuid!;
  const imported = await ok(owner, 'POST', `/contact-groups/${importGroup}/imports?file_name=alpha.csv`, {
    body: 'phone_number,first_name\n07700900411,Cy\nnot-a-number,Bad\n',
    headers: CSV,
  });
  const campaign = (
    await created(
      owner,
      '/campaigns/',
      campaignBody(
        { template, group },
        { throttled: true, scheduled_finish_date: '2026-06-02 17:00:00', pauses: [{ start_at: '2026-06-02 12:00:00', end_at: '2026-06-02 13:00:00' }] },
      ),
    )
  ).uuid!;
  const segment = (await created(owner, '/segments/', segmentBody(group))).uuid!;
  await ok(owner, 'PUT', '/team/signup-page', { body: signupPageBody('alpha-texts', group) });
  const token = (await created(owner, '/tokens/', { name: 'Alpha CI' })).uuid!;
  const shopConnection = (await created(owner, '/shop-connections/', { name: 'Alpha shop', platform: 'shopify', secret: 'alpha-shop-secret' })).uuid!;
  const conversion = (await created(owner, '/conversions/', { phone_number: '07700900401', order_id: 'ALPHA-1', value: 25, currency: 'EUR' })).uuid!;
  const inbound = (await created(owner, '/inbound-messages/', { from: '07700900403', body: 'alpha please' })).uuid!;
  // A conversation with A's contact (its thread is read with A's phone_number) and a saved reply.
  await created(owner, '/inbound-messages/', { from: '07700900401', body: 'Where is my order?' });
  // Read once, so the snapshots below (which read it again) find it read both times.
  await ok(owner, 'GET', '/conversations/447700900401');
  const savedReply = (await created(owner, '/saved-replies/', { name: 'Shipping', body: 'It left today.' })).uuid!;
  const flow = (await created(owner, '/flows/', { name: 'Alpha welcome', enabled: true, trigger: { type: 'api' }, steps: [{ type: 'wait', minutes: 60 }] }))
    .uuid!;
  await created(owner, `/flows/${flow}/runs`, { phone_number: '07700900401' });
  await ok(owner, 'POST', `/webhooks/${webhook}/test`);
  await until('the keyword webhook call and its log', async () => (await ok(owner, 'GET', `/webhooks/${webhook}/attempts`)).json().meta.total >= 2);
  await ok(owner, 'POST', `/reporting/${campaign}/delivery`);
  const job = (await ok(owner, 'GET', '/report-jobs/')).json().data[0].uuid;
  const invitation = (await created(owner, '/team/invitations', { email: 'invitee@alpha.example.com', role: 'viewer' })).uuid!;
  // The link's secret, from the e-mail waiting in the outbox (no worker sends it here).
  const mail = await t.database.pool.query(`SELECT body FROM account_emails WHERE to_address = 'invitee@alpha.example.com'`);
  const invitationSecret = /invitation#([A-Za-z0-9_-]+)/.exec(mail.rows[0].body)![1]!;
  a = {
    user: owner,
    token,
    sender,
    template,
    vanityDomain,
    link,
    webhook,
    eventEndpoint,
    eventDelivery,
    smsConnection,
    shopConnection,
    conversion,
    group,
    keyword,
    importGroup,
    import: imported.json().data.uuid,
    campaign,
    segment,
    job,
    inbound,
    savedReply,
    invitation,
    invitationSecret,
    flow,
  };

  const other = await t.user({ email: 'bravo@herald.test' });
  const bTemplate = (await created(other, '/templates/', { name: 'B sale', body: 'Hi ::Shop::', sender: 'Bravo' })).uuid!;
  const bGroup = (await created(other, '/contact-groups/', { name: 'Bravo customers' })).uuid!;
  await ok(other, 'PUT', `/contact-groups/${bGroup}/add-contacts`, { body: { contacts: [{ phone_number: '07700900501' }] } });
  const bDomain = (await ok(other, 'GET', '/vanity-domains/')).json().data[0].uuid;
  const bLink = (
    await created(other, '/links/', { vanity_domain_uuid: bDomain, template_uuid: bTemplate, name: 'Shop', destination: 'https://bravo.example.com/' })
  ).uuid!;
  const bKeyword = (await created(other, '/keywords/', { keyword: 'BRAVO', message: 'Hi' })).uuid!;
  // B's own conversation, for the assignee case.
  await created(other, '/inbound-messages/', { from: '07700900502', body: 'Hello Bravo' });
  const bCampaign = (await created(other, '/campaigns/', campaignBody({ template: bTemplate, group: bGroup }))).uuid!;
  const bSegment = (await created(other, '/segments/', segmentBody(bGroup))).uuid!;
  await ok(other, 'PUT', '/team/signup-page', { body: signupPageBody('bravo-texts', bGroup) });
  b = { user: other, template: bTemplate, group: bGroup, vanityDomain: bDomain, link: bLink, keyword: bKeyword, campaign: bCampaign, segment: bSegment };

  snapshotBefore = await snapshotOfA();
  uuidsOfA = new Set(Object.values(snapshotBefore).flatMap(({ body }) => (body.match(UUID) ?? []).map((uuid) => uuid.toLowerCase())));
});

afterAll(async () => {
  await receiver.close();
  await t.close();
});

const errorShape = (code: number) => ({ error: { code, http_code: code, message: expect.any(String), request_id: expect.any(String) } });

describe('the route table', () => {
  it('lists the API from the OpenAPI document', () => {
    expect(ROUTES.length).toBeGreaterThan(50);
    expect(GUARDED.length).toBeGreaterThan(30);
  });

  it('holds every /api/2.0 route the router serves (none hidden from these tests)', () => {
    const documented = new Set(ROUTES.map((route) => normaliseRouteKey(route.key)));
    const hidden = new Set(Object.keys(HIDDEN_ROUTES).map(normaliseRouteKey));
    const served = routesOfRouter(t.app).filter((key) => key.split(' ')[1]!.startsWith(`${API}/`));
    expect(served.length).toBeGreaterThan(50);
    expect(served.filter((key) => !documented.has(key) && !hidden.has(key))).toEqual([]);
  });

  it('knows a source of A for every path parameter', () => {
    const unknown = withParams.flatMap((route) => route.pathParams.filter((name) => !(name in PATH_PARAMETERS)).map((name) => `${route.key}: ${name}`));
    expect(unknown).toEqual([]);
  });

  it('has a valid body for team B on every guarded route that takes one', () => {
    expect(GUARDED.filter((route) => route.hasBody && !(route.key in REQUEST_BODIES)).map((route) => route.key)).toEqual([]);
  });

  it('has a cross-team case for every body field that references a resource', () => {
    const covered = new Set(BODY_REFERENCES.map((reference) => `${reference.route} ${reference.field}`));
    const missing = ROUTES.flatMap((route) =>
      route.bodyProperties.filter((field) => REFERENCE_FIELD.test(field)).map((field) => `${route.key} ${field}`),
    ).filter((entry) => !covered.has(entry));
    expect(missing).toEqual([]);
    // And the other way: the document shows each field a case names (the detection above sees them).
    const bodies = new Map(ROUTES.map((route) => [route.key, route.bodyProperties]));
    expect(BODY_REFERENCES.filter((reference) => !bodies.get(reference.route)?.includes(reference.field)).map((r) => `${r.route} ${r.field}`)).toEqual([]);
  });

  it('names only real routes in its allow-lists and tables (no stale entries)', () => {
    const keys = new Set(ROUTES.map((route) => route.key));
    const named = [
      ...Object.keys(EXEMPT_FROM_404),
      ...Object.keys(NOT_A_LIST),
      ...Object.keys(REQUEST_BODIES),
      ...STATEFUL_GETS,
      ...BODY_REFERENCES.map((r) => r.route),
    ];
    expect(named.filter((key) => !keys.has(key))).toEqual([]);
  });

  it("fills every path parameter with one of team A's real identifiers", () => {
    expect(Object.entries(snapshotBefore).filter(([, { status }]) => status !== 200)).toEqual([]);
    // `token`: an invitation link's secret (not a uuid), taken only by an exempt public route;
    // `phone_number`: a contact's number, not a uuid (A's own reads of it answered 200 just above).
    const used = new Set(withParams.flatMap((route) => route.pathParams).filter((name) => name !== 'token' && name !== 'phone_number'));
    expect([...used].filter((name) => !uuidsOfA.has(PATH_PARAMETERS[name]!(a).toLowerCase()))).toEqual([]);
  });
});

describe("team B calling routes with team A's identifiers", () => {
  // Plain loops rather than it.each: the test name carries the whole route, untruncated.
  for (const route of GUARDED) {
    it(`${route.key} answers 404`, async () => {
      const payload = REQUEST_BODIES[route.key]?.() ?? { body: undefined };
      const response = await call(b.user, route.method, fill(route, a), payload);
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toEqual(errorShape(404));
    });
  }

  it('leaves every resource of team A as it was', async () => {
    const after = await snapshotOfA();
    const changed = Object.keys(snapshotBefore).filter((url) => JSON.stringify(after[url]) !== JSON.stringify(snapshotBefore[url]));
    expect(changed).toEqual([]);
    expect(after).toEqual(snapshotBefore);
  });

  it('is answered 403 by the public report download without a valid signature (exempt from 404 above)', async () => {
    const url = `${API}/report-downloads/${a.job}?expires=4102444800&signature=forged`;
    for (const response of [await call(b.user, 'GET', url), await t.request('GET', url)]) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toEqual(errorShape(403));
    }
  });
});

describe("team B's lists", () => {
  for (const route of LISTS) {
    it(`${route.key} holds none of team A's uuids`, async () => {
      const response = await call(b.user, 'GET', `${route.path}?per_page=100`);
      expect(response.statusCode, response.body).toBe(200);
      const leaked = (response.body.match(UUID) ?? []).filter((uuid) => uuidsOfA.has(uuid.toLowerCase()));
      expect(leaked).toEqual([]);
      if (!(route.key in NOT_A_LIST)) expect(response.json()).toMatchObject({ data: expect.any(Array), meta: expect.any(Object), links: expect.any(Object) });
    });
  }
});

describe("team B naming team A's resources in a body", () => {
  for (const reference of BODY_REFERENCES) {
    it(`${reference.route} with A's ${reference.field} answers 422 naming the field, and nothing is created or changed`, async () => {
      const [method, path] = reference.route.split(' ') as [ApiMethod, string];
      const before = await listsOf(b.user);
      const response = await call(b.user, method, reference.url?.() ?? path, { body: reference.body() });
      expect(response.statusCode, response.body).toBe(422);
      const error = response.json().error;
      expect(error).toMatchObject({ code: 422, http_code: 422, message: expect.any(String) });
      expect(
        Object.keys(error.errors ?? {}).filter((key) => key === reference.field || key.startsWith(`${reference.field}.`)).length,
        response.body,
      ).toBeGreaterThan(0);
      expect(await listsOf(b.user)).toEqual(before);
    });
  }
});

describe('switching team', () => {
  it("answers 404 for a team the user is not in, and leaves the user's current team alone", async () => {
    const response = await call(b.user, 'GET', `${API}/users/switch/team/${a.user.teamUuid}`);
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json()).toEqual(errorShape(404));
    const me = (await call(b.user, 'GET', `${API}/users/me`)).json().data;
    expect(me.current_team.uuid).toBe(b.user.teamUuid);
    expect(me.teams.map((team: { uuid: string }) => team.uuid)).toEqual([b.user.teamUuid]);
  });

  it('switches a signed-in session to a team the user is in (the 404 above is about membership)', async () => {
    const session = (await t.request('POST', `${API}/auth/login`, { body: { email: a.user.email, password: a.user.password } })).json().data.token;
    const response = await t.request('GET', `${API}/users/switch/team/${a.user.teamUuid}`, { token: session });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.current_team.uuid).toBe(a.user.teamUuid);
  });
});
