/**
 * The audit trail is written in the change's own transaction (issue 33, point 4), for campaigns,
 * templates, links, keywords, vanity domains, webhooks and the keyword tester's inbound messages:
 * an audit event that cannot be written undoes the change (the request fails and the resource is as
 * it was), and a change that is made has its event, with the fields it changed. A trigger on
 * audit_events refuses the one action under test (testing/audit.ts), as a full disk would.
 *
 * The test app is strict (testing/test-app.ts): a successful change its service did not record fails, so every
 * operation below is recorded by its service, not by the HTTP layer after the commit. The contact
 * group a campaign needs and the approval it waits for are written in SQL: their own routes belong
 * to modules converted elsewhere.
 *
 * Seen red: with editing.ts recording a campaign's edit after its transaction (outside it), the
 * refused event left the campaign renamed ("Spring sale" expected, "Summer sale" read); with the
 * record of the stop removed, the "refused" stop went through (the strict check answered 500 after
 * the commit) and left the campaign stopped (status 2, `stopped_at` set).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusingAudit } from '../../testing/audit';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const API = '/api/2.0';
const TEAM = 'Atomic Campaigns Co';
const clock = createTestClock('2026-06-01T08:00:00Z');
let t: TestApp;
let admin: TestUser;
let otherAdmin: TestUser;
let template: string;
let group: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, body?: unknown, user: TestUser = admin) => t.request(method, `${API}${url}`, { token: user.token, body });
const data = async (url: string) => {
  const response = await call('GET', url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
};

type Event = { resource_type: string; resource_uuid: string; changes: Record<string, unknown> };
const eventsOf = async (action: string): Promise<Event[]> => (await data(`/audit-events?per_page=100&action=${action}`)) as Event[];

/**
 * `change` refused by the audit trail fails (500) and leaves `state` as it was; made, it succeeds
 * (`status`) and has exactly one event more for `action`. Returns the successful answer and the event.
 */
async function atomically(action: string, change: () => ReturnType<typeof call>, state: () => Promise<unknown>, status: number) {
  const before = await state();
  const earlier = (await eventsOf(action)).length;
  const refused = await refusingAudit(t, action, change);
  expect(refused.statusCode, refused.body).toBe(500);
  expect(await state()).toEqual(before);
  expect(await eventsOf(action)).toHaveLength(earlier);
  const made = await change();
  expect(made.statusCode, made.body).toBe(status);
  // Newest first: the one event of this change.
  const events = await eventsOf(action);
  expect(events).toHaveLength(earlier + 1);
  return { made, event: events[0]! };
}

const campaignBody = (name: string) => ({
  name,
  sender: 'Acme',
  scheduled_send_date: '2026-06-02 10:00:00',
  expiry_date: '2026-06-02 18:00:00',
  scheduled_finish_date: '2026-06-02 16:00:00',
  throttled: true,
  template_uuid: template,
  included_contact_groups: [group],
});

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  admin = await t.user({ team: TEAM });
  const other = await t.user();
  await t.services.users.addToTeam(other.email, TEAM, 'admin');
  const team = (await t.services.teamsRepository.findByName(TEAM))!;
  const otherId = (await t.services.usersRepository.findByEmail(other.email))!.id;
  otherAdmin = { ...other, token: (await t.services.tokens.issue(otherId, 'personal', 'test', { teamId: team.id })).token };
  const created = await call('POST', '/templates/', { name: 'Sale', body: 'Sale today', sender: 'Acme' });
  expect(created.statusCode, created.body).toBe(201);
  template = created.json().data.uuid;
  const { rows } = await t.database.pool.query<{ uuid: string }>(
    `INSERT INTO contact_groups (team_id, name, created_at, updated_at) VALUES ($1, 'Everyone', now(), now()) RETURNING uuid::text`,
    [team.id],
  );
  group = rows[0]!.uuid;
});
afterAll(() => t.close());

describe('the audit trail of campaigns, in the change’s transaction', () => {
  it('create, edit, pause, test sends, stop and delete: a refused event undoes each; each made change has its event', async () => {
    const names = async () => ((await data('/campaigns/?per_page=100&include_tests=true')) as Array<{ name: string }>).map((c) => c.name).sort();

    const create = await atomically('createCampaign', () => call('POST', '/campaigns/', campaignBody('Spring sale')), names, 201);
    const uuid = create.made.json().data.uuid as string;
    expect(create.event).toMatchObject({
      resource_type: 'campaign',
      resource_uuid: uuid,
      changes: { name: { after: 'Spring sale' }, throttled: { after: true } },
    });

    const show = () => data(`/campaigns/${uuid}`);
    const update = await atomically('updateCampaign', () => call('PUT', `/campaigns/${uuid}`, campaignBody('Summer sale')), show, 200);
    expect(update.event).toMatchObject({ resource_uuid: uuid, changes: { name: { before: 'Spring sale', after: 'Summer sale' } } });

    const pause = await atomically('toggleCampaignPaused', () => call('PUT', `/campaigns/${uuid}/toggle-paused-status`), show, 200);
    expect(pause.made.json().data.manually_paused).toBe(true);
    expect(pause.event).toMatchObject({ resource_uuid: uuid, changes: { manually_paused: { before: null, after: true } } });

    const tests = await atomically(
      'createCampaignTestSends',
      () => call('POST', `/campaigns/${uuid}/test-sends`, { phone_numbers: ['07700900123'] }),
      names,
      201,
    );
    expect(tests.made.json().data).toHaveLength(1);
    expect(tests.event).toEqual(expect.objectContaining({ resource_type: 'campaign', resource_uuid: uuid, changes: {} }));

    const sendTest = await atomically(
      'sendTestCampaign',
      () =>
        call('POST', '/campaigns/send-test', {
          name: 'One test',
          sender: 'Acme',
          scheduled_send_date: '2026-06-02 10:00:00',
          expiry_date: '2026-06-02 18:00:00',
          template_uuid: template,
          contact_number: '07700900124',
        }),
      names,
      201,
    );
    expect(sendTest.event).toMatchObject({ resource_uuid: sendTest.made.json().data.uuid, changes: { name: { after: 'One test' }, is_test: { after: true } } });

    const stop = await atomically('stopCampaign', () => call('PUT', `/campaigns/${uuid}/stop`), show, 200);
    expect(stop.made.json().data.status).toBe(2);
    expect(stop.event).toMatchObject({ resource_uuid: uuid, changes: { status: { before: 0, after: 2 } } });

    const remove = await atomically('deleteCampaign', () => call('DELETE', `/campaigns/${uuid}`), names, 204);
    expect((await call('GET', `/campaigns/${uuid}`)).statusCode).toBe(404);
    expect(remove.event).toMatchObject({ resource_uuid: uuid, changes: { name: { before: 'Summer sale' } } });
  });

  it('approve: a refused event leaves the campaign waiting; the approval has its event', async () => {
    const uuid = (await call('POST', '/campaigns/', campaignBody('Autumn sale'))).json().data.uuid as string;
    // Waiting for approval, asked by the admin: another admin decides.
    await t.database.pool.query(
      `UPDATE campaigns SET approval_status = 'pending', approval_requested_by = (SELECT id FROM users WHERE email = $2), approval_requested_at = now() WHERE uuid = $1`,
      [uuid, admin.email],
    );
    const approve = await atomically(
      'approveCampaign',
      () => call('PUT', `/campaigns/${uuid}/approve`, { comment: 'Fine' }, otherAdmin),
      () => data(`/campaigns/${uuid}`),
      200,
    );
    expect(approve.event).toMatchObject({
      resource_type: 'campaign',
      resource_uuid: uuid,
      changes: { 'approval.status': { before: 'pending', after: 'approved' }, 'approval.comment': { before: '', after: 'Fine' } },
    });
  });
});

describe('the audit trail of templates, links, keywords, vanity domains, webhooks and inbound messages, in the change’s transaction', () => {
  it('templates: create, edit and delete', async () => {
    const names = async () => ((await data('/templates/?per_page=100')) as Array<{ name: string }>).map((row) => row.name).sort();
    const create = await atomically('createTemplate', () => call('POST', '/templates/', { name: 'Atomic', body: 'Hi', sender: 'Acme' }), names, 201);
    const uuid = create.made.json().data.uuid as string;
    expect(create.event).toMatchObject({ resource_type: 'template', resource_uuid: uuid, changes: { name: { after: 'Atomic' }, body: { after: 'Hi' } } });
    const update = await atomically(
      'updateTemplate',
      () => call('PUT', `/templates/${uuid}`, { name: 'Atomic 2', body: 'Hi', sender: 'Acme' }),
      () => data(`/templates/${uuid}`),
      200,
    );
    expect(update.event).toMatchObject({ resource_uuid: uuid, changes: { name: { before: 'Atomic', after: 'Atomic 2' } } });
    const remove = await atomically('deleteTemplate', () => call('DELETE', `/templates/${uuid}`), names, 204);
    expect(remove.event).toMatchObject({ resource_uuid: uuid, changes: { name: { before: 'Atomic 2' } } });
  });

  it('links: create, edit and delete', async () => {
    const domain = ((await data('/vanity-domains/')) as Array<{ uuid: string; is_default: boolean }>).find((row) => row.is_default)!.uuid;
    const body = (name: string) => ({ template_uuid: template, vanity_domain_uuid: domain, name, destination: 'https://shop.example.com/' });
    const names = async () => ((await data('/links/?per_page=100')) as Array<{ name: string }>).map((row) => row.name).sort();
    const create = await atomically('createLink', () => call('POST', '/links/', body('Shop')), names, 201);
    const uuid = create.made.json().data.uuid as string;
    expect(create.event).toMatchObject({ resource_type: 'link', resource_uuid: uuid, changes: { name: { after: 'Shop' } } });
    const update = await atomically(
      'updateLink',
      () => call('PUT', `/links/${uuid}`, body('Store')),
      () => data(`/links/${uuid}`),
      200,
    );
    expect(update.event).toMatchObject({ resource_uuid: uuid, changes: { name: { before: 'Shop', after: 'Store' } } });
    await atomically('deleteLink', () => call('DELETE', `/links/${uuid}`), names, 204);
  });

  it('keywords: create, edit and delete', async () => {
    const body = {
      keyword: 'ATOM',
      message: 'Thanks',
      help: 'A test',
      add_contact_to_group: false,
      call_webhook: false,
      contact_groups_uuid: [],
      webhooks_uuid: [],
    };
    const names = async () => ((await data('/keywords/?per_page=100')) as Array<{ keyword: string }>).map((row) => row.keyword).sort();
    const create = await atomically('createKeyword', () => call('POST', '/keywords/', body), names, 201);
    const uuid = create.made.json().data.uuid as string;
    expect(create.event).toMatchObject({ resource_type: 'keyword', resource_uuid: uuid, changes: { keyword: { after: 'ATOM' } } });
    const update = await atomically(
      'updateKeyword',
      () => call('PUT', `/keywords/${uuid}`, { message: 'Thank you' }),
      () => data(`/keywords/${uuid}`),
      200,
    );
    expect(update.event).toMatchObject({ resource_uuid: uuid, changes: { message: { before: 'Thanks', after: 'Thank you' } } });
    await atomically('deleteKeyword', () => call('DELETE', `/keywords/${uuid}`), names, 204);
  });

  it('vanity domains: create, edit and delete', async () => {
    const domains = async () => ((await data('/vanity-domains/?per_page=100')) as Array<{ domain: string }>).map((row) => row.domain).sort();
    const create = await atomically('createVanityDomain', () => call('POST', '/vanity-domains/', { domain: 'go.atomic.example' }), domains, 201);
    const uuid = create.made.json().data.uuid as string;
    expect(create.event).toMatchObject({ resource_type: 'vanity_domain', resource_uuid: uuid, changes: { domain: { after: 'go.atomic.example' } } });
    const update = await atomically(
      'updateVanityDomain',
      () => call('PUT', `/vanity-domains/${uuid}`, { domain: 'to.atomic.example' }),
      () => data(`/vanity-domains/${uuid}`),
      200,
    );
    expect(update.event).toMatchObject({ resource_uuid: uuid, changes: { domain: { before: 'go.atomic.example', after: 'to.atomic.example' } } });
    await atomically('deleteVanityDomain', () => call('DELETE', `/vanity-domains/${uuid}`), domains, 204);
  });

  it('webhooks: create, edit, rotate the secret, test and delete; the secret and headers never reach the log', async () => {
    const names = async () => ((await data('/webhooks/?per_page=100')) as Array<{ name: string }>).map((row) => row.name).sort();
    const body = { name: 'CRM', url: 'https://crm.example.com/hook', headers: { 'X-Api-Key': 'very-secret-value' } };
    const create = await atomically('createWebhook', () => call('POST', '/webhooks/', body), names, 201);
    const uuid = create.made.json().data.uuid as string;
    expect(create.event).toMatchObject({ resource_type: 'webhook', resource_uuid: uuid, changes: { name: { after: 'CRM' } } });
    expect(JSON.stringify(create.event)).not.toContain('very-secret-value');
    expect(create.event.changes).not.toHaveProperty('secret');
    const update = await atomically(
      'updateWebhook',
      () => call('PUT', `/webhooks/${uuid}`, { name: 'CRM 2' }),
      () => data(`/webhooks/${uuid}`),
      200,
    );
    expect(update.event).toMatchObject({ resource_uuid: uuid, changes: { name: { before: 'CRM', after: 'CRM 2' } } });
    const secretOf = async () =>
      (await t.database.pool.query(`SELECT secret_encrypted FROM webhooks WHERE uuid = $1`, [uuid])).rows[0].secret_encrypted as Buffer;
    const rotate = await atomically('rotateWebhookSecret', () => call('POST', `/webhooks/${uuid}/rotate-secret`), secretOf, 200);
    expect(rotate.event.changes).not.toHaveProperty('secret');
    // A test call (to a private address, refused at once: an attempt with its error): the attempt is kept only with its event.
    expect((await call('PUT', `/webhooks/${uuid}`, { url: 'http://127.0.0.1:9/hook' })).statusCode).toBe(200);
    const test = await atomically(
      'testWebhook',
      () => call('POST', `/webhooks/${uuid}/test`),
      () => data(`/webhooks/${uuid}/attempts?per_page=100`),
      200,
    );
    expect(test.event).toMatchObject({
      resource_type: 'webhook',
      resource_uuid: uuid,
      changes: { event: { after: 'webhook.test' }, url: { after: 'http://127.0.0.1:9/hook' } },
    });
    await atomically('deleteWebhook', () => call('DELETE', `/webhooks/${uuid}`), names, 204);
  });

  it('inbound messages: a message typed in the keyword tester is kept only with its event', async () => {
    const messages = async () => ((await data('/inbound-messages/?per_page=100')) as Array<{ uuid: string }>).map((row) => row.uuid).sort();
    const received = await atomically(
      'receiveInboundMessage',
      () => call('POST', '/inbound-messages/', { from: '07700900125', body: 'Hello there' }),
      messages,
      201,
    );
    expect(received.event).toMatchObject({
      resource_type: 'inbound_message',
      resource_uuid: received.made.json().data.uuid,
      changes: { body: { after: 'Hello there' }, source: { after: 'api' } },
    });
  });
});
