/**
 * Event endpoints (issue 23, point 1): what a receiver gets, counted at real HTTP receivers on
 * loopback, every call's signature checked by the reference `standardwebhooks` library.
 *
 * Seen red once each: with `deliveriesOf` not matching an endpoint's team to the event's, the other
 * team's receiver heard this team's events taken in the same round (isolation); with `deliveriesOf` not merging message events a
 * campaign of 5 made 5 calls instead of 3 (batching); with the `attempts = …` fence left out of
 * `record`, a worker that lost its lease recorded its outcome over the next attempt's (lease test); with the
 * disabling step left out, no e-mail reached the SMTP sink (24-hour test).
 *
 * Issue 32: with migration 0041's deferred `campaign.started` trigger taken out (the event built, as
 * before, from the row of the start's first statement), `recipients` read 0 in both started tests.
 *
 * Issue 33: every body a receiver gets is parsed with the event's zod schema (src/shared/contract/events.ts,
 * strict: a field missing or extra fails), and the last test checks that all fourteen types and the
 * test call were. Seen red: with `phone_number` renamed in the schema's message, and with an extra
 * field in migration 0034's `import.finished` trigger, `bodiesOf` threw naming the field.
 *
 * Issue 34: `message.failed_over`, written by the router's failover recorder (failover-events.ts)
 * after a real send through the Twilio fake answering 503 and on to the Vonage fake. Seen red: with
 * the recorder's `event_listened` condition taken out, the outbox held a row for the team without a
 * listener (the worker matches types too, so only the outbox shows it); with team-router.ts's
 * observer no longer collecting failovers, no `message.failed_over` was written at all.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES, EventPayloadSchema, TEST_EVENT_TYPE } from '../../../shared/contract';
import { createEngine } from '../../engine/engine';
import { createEngineStore } from '../../engine/store/postgres-store';
import { createStartStore } from '../../engine/store/start';
import { createMailer } from '../../gateways/mail/mailer';
import { createTeamRouter } from '../../gateways/sms/routing/team-router';
import { createSimulatorGateway } from '../../gateways/sms/simulator';
import { createAccountMailWorker } from '../account-mail/account-mail.worker';
import { createReportWorker } from '../reports/report-worker';
import { sentReportCampaign } from '../../testing/report-campaign';
import { TwilioFake } from '../../testing/provider-fakes/twilio-fake';
import { VonageFake } from '../../testing/provider-fakes/vonage-fake';
import { startSmtpSink, type SmtpSink } from '../../testing/smtp-sink';
import { verifiedBody } from '../../testing/standard-webhooks';
import { createTestApp, createTestClock, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../testing/test-app';
import { startWebhookReceiver, type ReceivedCall } from '../../testing/webhook-receiver';
import { createEventDeliveryWorker } from './event-delivery.worker';
import { createFailoverRecorder } from './failover-events';

type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
type Payload = { type: string; timestamp: string; data: Record<string, unknown> };

const clock = createTestClock('2026-06-01T08:00:00Z');
let t: TestApp;
let dataDir: string;
let ok: Receiver;
let down: Receiver;
let sink: SmtpSink;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-events-'));
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', EVENT_BATCH_SIZE: '2', EVENT_RETRY_MS: '1000', DATA_DIR: dataDir }, { clock });
  ok = await startWebhookReceiver();
  down = await startWebhookReceiver({ status: 500 });
  sink = await startSmtpSink();
});
afterAll(async () => {
  await ok.close();
  await down.close();
  await sink.close();
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});
afterEach(() => {
  ok.calls.length = 0;
  down.calls.length = 0;
});

const worker = () =>
  createEventDeliveryWorker({
    outbox: t.services.eventOutbox,
    deliver: t.services.deliverEvent,
    reportLinks: t.services.reportLinks,
    log: () => {},
    options: { batchSize: t.config.eventBatchSize },
  });

const ALL_TYPES = [...EVENT_TYPES];

async function endpoint(user: TestUser, body: Record<string, unknown>): Promise<{ uuid: string; secret: string }> {
  const response = await t.request('POST', '/api/2.0/event-endpoints/', { token: user.token, body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

/** The types of the bodies parsed by `parsedBody` in this file: the last test checks that every one was. */
const parsedTypes = new Set<string>();

/** The body of a call, its signature checked with `secret`, parsed with its event type's schema (it throws on any difference). */
function parsedBody(secret: string, call: ReceivedCall): Payload {
  const body = verifiedBody(secret, call) as Payload;
  const parsed = EventPayloadSchema.safeParse(body);
  if (!parsed.success) throw new Error(`A ${body.type} body does not match its schema: ${parsed.error.message}\n${JSON.stringify(body)}`);
  parsedTypes.add(parsed.data.type);
  return body;
}

/** Every call the receiver got, its signature checked with `secret`, as bodies (each parsed with its event's schema). */
const bodiesOf = (calls: ReceivedCall[], secret: string) => calls.map((call) => parsedBody(secret, call));
const typesOf = (bodies: Payload[]) => bodies.map((body) => body.type);

describe('event endpoints: the API', () => {
  let admin: TestUser;
  beforeAll(async () => {
    admin = await t.user();
  });

  it('registers an endpoint and shows its signing secret once, stored encrypted', async () => {
    const created = await endpoint(admin, {
      url: 'https://hooks.example.com/herald',
      events: ['message.delivered'],
      headers: { 'X-Key': 'crm-key-abcdefgh-9876' },
    });
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/herald',
      events: ['message.delivered'],
      headers: { 'X-Key': 'crm-key-abcdefgh-9876' },
      enabled: true,
      description: '',
      failing_since: '',
      disabled_reason: null,
      links: [{ rel: 'self', uri: `${TEST_PUBLIC_URL}/api/2.0/event-endpoints/${created.uuid}` }],
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const shown = await t.request('GET', `/api/2.0/event-endpoints/${created.uuid}`, { token: admin.token });
    expect(shown.json().data).not.toHaveProperty('secret');
    const { rows } = await t.database.pool.query(`SELECT secret_encrypted FROM event_endpoints WHERE uuid = $1`, [created.uuid]);
    expect((rows[0].secret_encrypted as Buffer).toString('base64')).not.toContain(created.secret.slice(6, 30));
    // The header value is a credential too: sealed in the row, masked once created (admins see its last 4 characters).
    expect(shown.json().data.headers).toEqual({ 'X-Key': '********9876' });
    const stored = await t.database.pool.query(`SELECT headers::text AS headers FROM event_endpoints WHERE uuid = $1`, [created.uuid]);
    expect(stored.rows[0].headers).toContain('X-Key');
    expect(stored.rows[0].headers).not.toContain('abcdefgh');
  });

  it('shows header values to viewers and read-only tokens as the mask alone, listed or shown', async () => {
    const created = await endpoint(admin, {
      url: 'https://hooks.example.com/masked',
      events: ['message.delivered'],
      headers: { 'X-Key': 'crm-key-abcdefgh-5432' },
    });
    const team = (await t.services.teamsRepository.findByUuid(admin.teamUuid))!;
    const member = await t.user();
    await t.services.users.addToTeam(member.email, team.name, 'viewer');
    const memberId = (await t.services.usersRepository.findByEmail(member.email))!.id;
    const viewer = (await t.services.tokens.issue(memberId, 'personal', 'viewer', { teamId: team.id })).token;
    const adminId = (await t.services.usersRepository.findByEmail(admin.email))!.id;
    const readOnly = (await t.services.tokens.issue(adminId, 'personal', 'read only', { teamId: team.id, scope: 'read_only' })).token;
    for (const token of [viewer, readOnly]) {
      const shown = await t.request('GET', `/api/2.0/event-endpoints/${created.uuid}`, { token });
      const listed = await t.request('GET', '/api/2.0/event-endpoints/?per_page=100', { token });
      expect(shown.statusCode, shown.body).toBe(200);
      for (const body of [shown.body, listed.body]) {
        expect(body).not.toContain('abcdefgh');
        expect(body).not.toContain('5432');
      }
      expect(shown.json().data.headers).toEqual({ 'X-Key': '********' });
    }
  });

  it.each([
    ['no events', { url: 'https://x.example/h', events: [] }, 'events', 'Choose at least one event.'],
    ['an unknown event', { url: 'https://x.example/h', events: ['message.read'] }, 'events.0', expect.stringContaining('An event type must be one of')],
    ['an event twice', { url: 'https://x.example/h', events: ['report.ready', 'report.ready'] }, 'events', 'The events may not repeat.'],
    ['a relative url', { url: '/hook', events: ['report.ready'] }, 'url', 'The url must be an absolute http or https URL.'],
    [
      'a signature header',
      { url: 'https://x.example/h', events: ['report.ready'], headers: { 'Webhook-Signature': 'v1,x' } },
      'headers.Webhook-Signature',
      expect.any(String),
    ],
    ['enabled as a string', { url: 'https://x.example/h', events: ['report.ready'], enabled: 'yes' }, 'enabled', 'enabled must be true or false.'],
  ])('refuses %s with 422 naming the field, writing nothing', async (_case, body, field, message) => {
    const before = (await t.database.pool.query(`SELECT count(*)::int AS n FROM event_endpoints`)).rows[0].n;
    const response = await t.request('POST', '/api/2.0/event-endpoints/', { token: admin.token, body });
    expect(response.statusCode).toBe(422);
    expect(response.json().error.errors[field]).toEqual([message]);
    expect((await t.database.pool.query(`SELECT count(*)::int AS n FROM event_endpoints`)).rows[0].n).toBe(before);
  });

  it('edits part of an endpoint, lists and deletes it; another team sees none of it', async () => {
    const created = await endpoint(admin, { url: 'https://hooks.example.com/a', events: ['report.ready'], description: 'CRM' });
    const edited = await t.request('PUT', `/api/2.0/event-endpoints/${created.uuid}`, {
      token: admin.token,
      body: { enabled: false, events: ['inbound.received'] },
    });
    expect(edited.json().data).toMatchObject({ url: 'https://hooks.example.com/a', description: 'CRM', enabled: false, events: ['inbound.received'] });
    const list = (await t.request('GET', '/api/2.0/event-endpoints/', { token: admin.token })).json();
    expect(list.data.map((e: { uuid: string }) => e.uuid)).toContain(created.uuid);
    const stranger = await t.user();
    expect((await t.request('GET', '/api/2.0/event-endpoints/', { token: stranger.token })).json().data).toEqual([]);
    expect((await t.request('GET', `/api/2.0/event-endpoints/${created.uuid}`, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.request('DELETE', `/api/2.0/event-endpoints/${created.uuid}`, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.request('DELETE', `/api/2.0/event-endpoints/${created.uuid}`, { token: admin.token })).statusCode).toBe(204);
    expect((await t.request('GET', `/api/2.0/event-endpoints/${created.uuid}`, { token: admin.token })).statusCode).toBe(404);
  });

  it('sends a signed test event at once and logs it as a delivery with its attempt', async () => {
    const created = await endpoint(admin, { url: ok.url, events: ['report.ready'], headers: { 'X-Api-Key': 'k-9' } });
    const response = await t.request('POST', `/api/2.0/event-endpoints/${created.uuid}/test`, { token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    const delivery = response.json().data;
    expect(delivery).toMatchObject({ type: 'event_endpoint.test', status: 'delivered', attempts: 1, last_status_code: 200, last_error: null });
    expect(delivery.attempt_log).toEqual([{ status_code: 200, latency_ms: expect.any(Number), error: null, created_at: '2026-06-01 09:00:00' }]);
    expect(ok.calls).toHaveLength(1);
    const call = ok.calls[0]!;
    expect(call.headers['x-api-key']).toBe('k-9');
    expect(call.headers['webhook-id']).toBe(delivery.uuid);
    parsedBody(created.secret, call);
    expect(verifiedBody(created.secret, call)).toEqual({
      type: 'event_endpoint.test',
      timestamp: '2026-06-01T08:00:00.000Z',
      data: { endpoint: { uuid: created.uuid, url: ok.url }, message: 'A test event from Herald.' },
    });
    expect(() => verifiedBody('whsec_' + Buffer.alloc(32, 1).toString('base64'), call)).toThrow(/No matching signature/);
    const listed = (await t.request('GET', `/api/2.0/event-endpoints/${created.uuid}/deliveries`, { token: admin.token })).json();
    expect(listed.data.map((d: { uuid: string }) => d.uuid)).toEqual([delivery.uuid]);
  });

  it('after a rotation signs with the new secret and, for 24 hours, the old one too', async () => {
    const created = await endpoint(admin, { url: ok.url, events: ['report.ready'] });
    const rotated = (await t.request('POST', `/api/2.0/event-endpoints/${created.uuid}/rotate-secret`, { token: admin.token })).json().data;
    expect(rotated.secret).not.toBe(created.secret);
    await t.request('POST', `/api/2.0/event-endpoints/${created.uuid}/test`, { token: admin.token });
    expect(verifiedBody(rotated.secret, ok.calls[0]!)).toMatchObject({ type: 'event_endpoint.test' });
    expect(verifiedBody(created.secret, ok.calls[0]!)).toMatchObject({ type: 'event_endpoint.test' });
    clock.advance(24 * 3_600_000 + 1000);
    try {
      await t.request('POST', `/api/2.0/event-endpoints/${created.uuid}/test`, { token: admin.token });
      expect(verifiedBody(rotated.secret, ok.calls[1]!)).toMatchObject({ type: 'event_endpoint.test' });
      expect(() => verifiedBody(created.secret, ok.calls[1]!)).toThrow(/No matching signature/);
    } finally {
      clock.set('2026-06-01T08:00:00Z');
    }
  });
});

describe('event endpoints: what a team pushes', () => {
  it('pushes a campaign, its messages in batches of at most EVENT_BATCH_SIZE, and their receipts; another team hears nothing', async () => {
    const owner = await t.user();
    const other = await t.user();
    const mine = await endpoint(owner, { url: ok.url, events: ALL_TYPES });
    const theirs = await endpoint(other, { url: down.url, events: ALL_TYPES });
    const campaign = await sentReportCampaign(t, { token: owner.token, clock, name: 'Spring', contacts: 5 });
    clock.set('2026-06-01T08:00:00Z');
    // The other team's own event, taken in the same round as this team's.
    await t.request('POST', '/api/2.0/inbound-messages/', { token: other.token, body: { from: '07700900999', body: 'hello' } });
    await worker().runOnce();
    expect(typesOf(bodiesOf(down.calls, theirs.secret))).toEqual(['inbound.received']);
    let bodies = bodiesOf(ok.calls, mine.secret);
    expect(
      typesOf(bodies)
        .filter((type) => !type.startsWith('message.'))
        .sort(),
    ).toEqual(['campaign.finished', 'campaign.started']);
    const submitted = bodies.filter((body) => body.type === 'message.submitted');
    // 5 messages, 2 a call: 3 calls, each message in exactly one.
    expect(submitted.map((body) => (body.data.messages as unknown[]).length).sort()).toEqual([1, 2, 2]);
    const { rows } = await t.database.pool.query(
      `SELECT m.uuid, m.phone_number, m.gateway_id FROM messages m JOIN campaigns c ON c.id = m.campaign_id WHERE c.uuid = $1`,
      [campaign],
    );
    const submittedUuids = submitted.flatMap((body) => (body.data.messages as Array<{ uuid: string }>).map((m) => m.uuid));
    expect(submittedUuids.sort()).toEqual(rows.map((row) => row.uuid).sort());
    expect(submitted[0]!.data.campaign).toEqual({ uuid: campaign, name: 'Spring' });
    expect((submitted[0]!.data.messages as unknown[])[0]).toEqual({
      uuid: expect.any(String),
      phone_number: expect.stringMatching(/^447700900/),
      status: 'submitted',
      reason: null,
      at: '2026-06-01T09:06:00.000Z',
    });
    // The real count of the campaign's recipients, not the 0 of the row before its messages were written.
    const started = bodies.find((body) => body.type === 'campaign.started')!;
    expect(started.data.campaign).toMatchObject({ uuid: campaign, name: 'Spring', status: 1, recipients: 5 });
    const finished = bodies.find((body) => body.type === 'campaign.finished')!;
    expect(finished.data.campaign).toMatchObject({ uuid: campaign, name: 'Spring', status: 2, recipients: 5, submitted: 5 });

    ok.calls.length = 0;
    await createEngineStore(t.database.db).markReceipts(
      rows.map((row, i) => ({
        gatewayId: row.gateway_id,
        status: i === 0 ? 'failed' : 'delivered',
        reason: i === 0 ? 'absent_subscriber' : null,
        at: clock.now(),
      })),
    );
    await worker().runOnce();
    bodies = bodiesOf(ok.calls, mine.secret);
    const messagesOf = (type: string) =>
      bodies.filter((body) => body.type === type).flatMap((body) => body.data.messages as Array<{ uuid: string; reason: string | null }>);
    expect(messagesOf('message.delivered')).toHaveLength(4);
    expect(messagesOf('message.failed')).toEqual([expect.objectContaining({ uuid: rows[0].uuid, reason: 'absent_subscriber' })]);
    expect(bodies.filter((body) => body.type === 'message.delivered')).toHaveLength(2);
    expect(bodiesOf(ok.calls, mine.secret).every((body) => JSON.stringify(body).includes('447700900999') === false)).toBe(true);
  });

  it('counts every recipient in campaign.started, also of an audience written in chunks beside the sending', async () => {
    const owner = await t.user();
    const mine = await endpoint(owner, { url: ok.url, events: ['campaign.started'] });
    const post = async (url: string, body: unknown) => {
      const response = await t.request('POST', `/api/2.0${url}`, { token: owner.token, body });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.uuid as string;
    };
    const template = await post('/templates/', { name: 'Big', body: 'Hello', sender: 'Acme' });
    const group = await post('/contact-groups/', { name: 'Many' });
    const contacts = [1, 2, 3, 4, 5, 6, 7].map((n) => ({ phone_number: `0770090060${n}` }));
    expect((await t.request('PUT', `/api/2.0/contact-groups/${group}/add-contacts`, { token: owner.token, body: { contacts } })).statusCode).toBe(200);
    // One of the seven opted out: six recipients.
    const optouts = (await t.request('GET', '/api/2.0/contact-groups/?search=default_optouts', { token: owner.token })).json().data[0].uuid;
    const optOut = { contacts: [{ phone_number: '07700900607' }] };
    expect((await t.request('PUT', `/api/2.0/contact-groups/${optouts}/add-contacts`, { token: owner.token, body: optOut })).statusCode).toBe(200);
    const campaign = await post('/campaigns/', {
      name: 'Chunked',
      sender: 'Acme',
      scheduled_send_date: '2026-06-01 09:00:00',
      expiry_date: '2026-06-01 12:00:00',
      included_contact_groups: [group],
      template_uuid: template,
    });
    // The start writes the first 2 messages; the rest would follow in chunks beside the sending.
    expect(await createStartStore(t.database.db, { first: 2, chunk: 2, ahead: 4 }).startDue(clock.now())).toHaveLength(1);
    await worker().runOnce();
    const [started] = bodiesOf(ok.calls, mine.secret);
    expect(started).toMatchObject({ type: 'campaign.started', data: { campaign: { uuid: campaign, status: 1, recipients: 6 } } });
  });

  it('pushes inbound messages, opt-outs and opt-ins', async () => {
    const owner = await t.user();
    const mine = await endpoint(owner, { url: ok.url, events: ['inbound.received', 'contact.opted_out', 'contact.opted_in'] });
    for (const body of ['STOP', 'START'])
      expect((await t.request('POST', '/api/2.0/inbound-messages/', { token: owner.token, body: { from: '07700900555', body } })).statusCode).toBe(201);
    await worker().runOnce();
    const bodies = bodiesOf(ok.calls, mine.secret).sort((a, b) => (a.type + JSON.stringify(a.data)).localeCompare(b.type + JSON.stringify(b.data)));
    expect(bodies).toEqual([
      { type: 'contact.opted_in', timestamp: expect.any(String), data: expect.objectContaining({ phone_number: '447700900555', source: 'keyword' }) },
      { type: 'contact.opted_out', timestamp: expect.any(String), data: expect.objectContaining({ phone_number: '447700900555', source: 'keyword' }) },
      {
        type: 'inbound.received',
        timestamp: expect.any(String),
        data: { inbound_message: expect.objectContaining({ from: '447700900555', body: 'START', opted_out: false }) },
      },
      {
        type: 'inbound.received',
        timestamp: expect.any(String),
        data: { inbound_message: expect.objectContaining({ from: '447700900555', body: 'STOP', opted_out: true }) },
      },
    ]);
  });

  it('pushes a finished import and a ready report with its signed download link', async () => {
    const owner = await t.user();
    const mine = await endpoint(owner, { url: ok.url, events: ['import.finished', 'report.ready'] });
    const group = (await t.request('POST', '/api/2.0/contact-groups/', { token: owner.token, body: { name: 'Imported' } })).json().data.uuid;
    const imported = await t.request('POST', `/api/2.0/contact-groups/${group}/imports?file_name=list.csv`, {
      token: owner.token,
      body: 'phone_number\n07700900001\nnot a number\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const campaign = await sentReportCampaign(t, { token: owner.token, clock, name: 'Reported', contacts: 2, first: 50 });
    expect((await t.request('POST', `/api/2.0/reporting/${campaign}/delivery?search=051`, { token: owner.token })).statusCode).toBe(202);
    const reports = createReportWorker({
      db: t.database.db,
      reports: t.services.reportsRepository,
      service: t.services.reports,
      mailer: createMailer({ smtpUrl: sink.url, outboxDir: path.join(dataDir, 'outbox'), from: 'Herald <r@herald.test>', log: () => {}, timeoutMs: 2000 }),
      clock,
      config: t.config,
      log: () => {},
    });
    await reports.runDue();
    await worker().runOnce();
    const bodies = bodiesOf(ok.calls, mine.secret);
    expect(typesOf(bodies).sort()).toEqual(['import.finished', 'report.ready']);
    expect(bodies.find((body) => body.type === 'import.finished')!.data.import).toMatchObject({
      status: 'completed',
      file_name: 'list.csv',
      contact_group: { uuid: group, name: 'Imported' },
      rows_valid: 1,
      rows_invalid: 1,
      contacts_added: 1,
    });
    const job = bodies.find((body) => body.type === 'report.ready')!.data.report_job as Record<string, unknown>;
    // Asked for with a filter: the one row that matches, and the filter named.
    expect(job).toMatchObject({ type: 'delivery', filters: { search: '051' }, row_count: 1, campaign: { uuid: campaign, name: 'Reported' } });
    expect(job).not.toHaveProperty('public_url');
    const download = await t.request('GET', String(job.download_url).replace(TEST_PUBLIC_URL, ''));
    expect(download.statusCode).toBe(200);
    expect(download.body.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('pushes pauses, resumes and stops made by hand', async () => {
    const owner = await t.user();
    const mine = await endpoint(owner, { url: ok.url, events: ['campaign.paused', 'campaign.resumed', 'campaign.stopped', 'campaign.finished'] });
    const campaign = await sentReportCampaign(t, { token: owner.token, clock, name: 'Held', contacts: 1, first: 70 });
    clock.set('2026-06-01T08:00:00Z');
    // A campaign that is sending and throttled, as one spread over hours is midway.
    await t.database.pool.query(
      `UPDATE campaigns SET status = 1, throttled = true, scheduled_finish_date = expiry_date, finished_sending_at = NULL WHERE uuid = $1`,
      [campaign],
    );
    await worker().runOnce();
    ok.calls.length = 0;
    for (let i = 0; i < 2; i++)
      expect((await t.request('PUT', `/api/2.0/campaigns/${campaign}/toggle-paused-status`, { token: owner.token })).statusCode).toBe(200);
    expect((await t.request('PUT', `/api/2.0/campaigns/${campaign}/stop`, { token: owner.token })).statusCode).toBe(200);
    await worker().runOnce();
    expect(typesOf(bodiesOf(ok.calls, mine.secret)).sort()).toEqual(['campaign.paused', 'campaign.resumed', 'campaign.stopped']);
  });

  it('pushes the messages a stop leaves unsent', async () => {
    const owner = await t.user();
    const mine = await endpoint(owner, { url: ok.url, events: ['message.unsent', 'campaign.stopped'] });
    const post = async (url: string, body: unknown) => {
      const response = await t.request('POST', `/api/2.0${url}`, { token: owner.token, body });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.uuid as string;
    };
    const template = await post('/templates/', { name: 'Halted', body: 'Hello', sender: 'Acme' });
    const group = await post('/contact-groups/', { name: 'Three' });
    const contacts = [1, 2, 3].map((n) => ({ phone_number: `0770090080${n}` }));
    expect((await t.request('PUT', `/api/2.0/contact-groups/${group}/add-contacts`, { token: owner.token, body: { contacts } })).statusCode).toBe(200);
    const campaign = await post('/campaigns/', {
      name: 'Halted',
      sender: 'Acme',
      scheduled_send_date: '2026-06-01 09:00:00',
      expiry_date: '2026-06-01 12:00:00',
      included_contact_groups: [group],
      template_uuid: template,
    });
    // Started (its messages written and queued), then stopped before any is claimed: the engine's sweep makes them unsent.
    expect(await createStartStore(t.database.db).startDue(clock.now())).toHaveLength(1);
    expect((await t.request('PUT', `/api/2.0/campaigns/${campaign}/stop`, { token: owner.token })).statusCode).toBe(200);
    await createEngineStore(t.database.db).expire(clock.now());
    await worker().runOnce();
    const bodies = bodiesOf(ok.calls, mine.secret);
    expect(typesOf(bodies).sort()).toEqual(['campaign.stopped', 'message.unsent', 'message.unsent']);
    const unsent = bodies.filter((body) => body.type === 'message.unsent').flatMap((body) => body.data.messages as Array<Record<string, unknown>>);
    expect(unsent.map((message) => message.phone_number).sort()).toEqual(['447700900801', '447700900802', '447700900803']);
    expect(unsent.every((message) => message.status === 'unsent' && message.reason === 'stopped')).toBe(true);
  });
});

describe('event endpoints: failovers (issue 34)', () => {
  const TWILIO = { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'twilio-auth-token-0123456789' };
  const VONAGE = { api_key: 'vonage-key', api_secret: 'vonage-secret-0123', signature_secret: 'vonage-signature-secret-0123' };
  let twilio: TwilioFake;
  let vonage: VonageFake;
  // Receivers of this test alone (the shared ones may still get retries of the tests above).
  let listening: Receiver;
  let others: Receiver;
  beforeAll(async () => {
    twilio = await new TwilioFake(TWILIO).start();
    vonage = await new VonageFake(VONAGE).start();
    listening = await startWebhookReceiver();
    others = await startWebhookReceiver();
  });
  afterAll(async () => {
    await twilio.stop();
    await vonage.stop();
    await listening.close();
    await others.close();
  });

  it('pushes message.failed_over when Twilio answers 503 and the messages go on to Vonage; only to endpoints listening to it', async () => {
    const owner = await t.user();
    const mine = await endpoint(owner, { url: listening.url, events: ['message.failed_over'] });
    // Enabled but listening to something else, and listening but disabled: neither hears a failover.
    await endpoint(owner, { url: others.url, events: ['campaign.stopped'] });
    const disabled = await endpoint(owner, { url: others.url, events: ['message.failed_over'] });
    expect((await t.request('PUT', `/api/2.0/event-endpoints/${disabled.uuid}`, { token: owner.token, body: { enabled: false } })).statusCode).toBe(200);
    // A team with connections and the same failures but no endpoint: no event is even written for it.
    const quiet = await t.user();

    const post = async (user: TestUser, url: string, body: unknown) => {
      const response = await t.request('POST', `/api/2.0${url}`, { token: user.token, body });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data.uuid as string;
    };
    const campaignOf = async (user: TestUser, numbers: string[]) => {
      const twilioUuid = await post(user, '/sms-connections/', {
        name: 'Twilio UK',
        provider: 'twilio',
        base_url: twilio.baseUrl,
        credentials: TWILIO,
        senders: ['+447700900001'],
        max_per_second: 1000,
      });
      const vonageUuid = await post(user, '/sms-connections/', {
        name: 'Vonage',
        provider: 'vonage',
        base_url: vonage.baseUrl,
        credentials: VONAGE,
        senders: ['Acme'],
        max_per_second: 1000,
      });
      await t.database.pool.query(`INSERT INTO sms_routes (team_id, rules, updated_at) SELECT id, $2, now() FROM teams WHERE uuid = $1`, [
        user.teamUuid,
        JSON.stringify([{ countries: ['GB'], connections: [twilioUuid, vonageUuid], sender: null }]),
      ]);
      const template = await post(user, '/templates/', { name: 'Routed', body: 'Hello', sender: 'Acme' });
      const group = await post(user, '/contact-groups/', { name: 'Routed' });
      const contacts = numbers.map((phone_number) => ({ phone_number }));
      expect((await t.request('PUT', `/api/2.0/contact-groups/${group}/add-contacts`, { token: user.token, body: { contacts } })).statusCode).toBe(200);
      const campaign = await post(user, '/campaigns/', {
        name: 'Routed',
        sender: 'Acme',
        scheduled_send_date: '2026-06-01 09:00:00',
        expiry_date: '2026-06-01 12:00:00',
        included_contact_groups: [group],
        template_uuid: template,
      });
      return { campaign, twilioUuid, vonageUuid };
    };
    const numbers = ['447700900861', '447700900862', '447700900863'];
    const sent = await campaignOf(owner, numbers);
    await campaignOf(quiet, ['447700900871']);

    const router = createTeamRouter({
      db: t.database.db,
      secrets: t.services.secrets,
      publicUrl: t.config.publicUrl,
      installation: createSimulatorGateway({ latencyMs: 0, failureRate: 0 }),
      inDoubt: 'fail',
      timeoutMs: 500,
      optOut: async () => {},
      failedOver: createFailoverRecorder(t.database.db),
      breaker: { threshold: 100, openMs: 60_000, maxOpenMs: 60_000 },
      loaderTtlMs: 0,
    });
    const engine = createEngine({
      store: createEngineStore(t.database.db),
      gateway: createSimulatorGateway({ latencyMs: 0, failureRate: 0 }),
      clock,
      options: { tickMs: 1000, batchSize: 100, rateLimitPerSecond: 10_000, leaseMs: 30_000, lanes: 1 },
      urlBase: (domain) => t.services.vanityDomains.urlBase({ domain }),
      routing: router,
    });
    twilio.failNext(4, { status: 503, body: { code: 20500, message: 'Service unavailable', status: 503 } });
    const before = vonage.accepted.length;
    for (let i = 0; i < 5; i++) await engine.tick();
    await router.stop();
    // Every message of both teams went on to Vonage.
    expect(
      vonage.accepted
        .slice(before)
        .map((m) => m.to)
        .sort(),
    ).toEqual([...numbers, '447700900871']);
    const outbox = await t.database.pool.query(
      `SELECT tm.uuid::text AS team FROM event_outbox o JOIN teams tm ON tm.id = o.team_id WHERE o.type = 'message.failed_over'`,
    );
    expect(outbox.rows).toEqual([{ team: owner.teamUuid }]);

    await worker().runOnce();
    expect(others.calls).toEqual([]);
    const bodies = bodiesOf(listening.calls, mine.secret);
    expect(typesOf(bodies)).toEqual(['message.failed_over', 'message.failed_over']); // 3 messages, EVENT_BATCH_SIZE 2
    expect(bodies.every((body) => (body.data.campaign as { uuid: string }).uuid === sent.campaign)).toBe(true);
    const messages = bodies.flatMap((body) => body.data.messages as Array<Record<string, unknown>>);
    const { rows } = await t.database.pool.query(
      `SELECT m.uuid::text, m.phone_number FROM messages m JOIN campaigns c ON c.id = m.campaign_id WHERE c.uuid = $1 ORDER BY m.phone_number`,
      [sent.campaign],
    );
    const byNumber = (a: unknown[], b: unknown[]) => String(a[1]).localeCompare(String(b[1]));
    expect(messages.map((m) => [m.uuid, m.phone_number]).sort(byNumber)).toEqual(rows.map((row) => [row.uuid, row.phone_number]));
    for (const message of messages)
      expect(message).toMatchObject({
        from_connection: { uuid: sent.twilioUuid, name: 'Twilio UK' },
        to_connection: { uuid: sent.vonageUuid, name: 'Vonage' },
        reason: expect.stringMatching(/^20500: /),
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
    // And the overview's hourly counters counted them, for this team only.
    const counted = await t.database.pool.query(
      `SELECT tm.uuid::text AS team, sum(h.failovers)::int AS failovers FROM team_hourly_counts h JOIN teams tm ON tm.id = h.team_id
        WHERE tm.uuid = ANY($1) GROUP BY tm.uuid ORDER BY 2`,
      [[owner.teamUuid, quiet.teamUuid]],
    );
    expect(counted.rows).toEqual([
      { team: quiet.teamUuid, failovers: 1 },
      { team: owner.teamUuid, failovers: 3 },
    ]);
  });
});

describe('event endpoints: retries, leases and failing receivers', () => {
  const deliveryOf = async (endpointUuid: string, token: string) => {
    const listed = (await t.request('GET', `/api/2.0/event-endpoints/${endpointUuid}/deliveries`, { token })).json().data;
    return (await t.request('GET', `/api/2.0/event-endpoints/${endpointUuid}/deliveries/${listed[0].uuid}`, { token })).json().data;
  };
  const inbound = (token: string, from = '07700900600') => t.request('POST', '/api/2.0/inbound-messages/', { token, body: { from, body: 'hello' } });

  it('retries a failed call with back-off under the same webhook-id until the receiver takes it', async () => {
    const owner = await t.user();
    const mine = await endpoint(owner, { url: down.url, events: ['inbound.received'] });
    await inbound(owner.token);
    await worker().runOnce();
    expect(down.calls).toHaveLength(1);
    let delivery = await deliveryOf(mine.uuid, owner.token);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500, last_error: 'The receiver answered 500.' });
    expect((await t.request('GET', `/api/2.0/event-endpoints/${mine.uuid}`, { token: owner.token })).json().data.failing_since).toBe('2026-06-01 09:00:00');
    await worker().runOnce();
    expect(down.calls).toHaveLength(1); // not due yet
    clock.advance(1_200);
    await worker().runOnce();
    expect(down.calls).toHaveLength(2);
    expect(down.calls[1]!.headers['webhook-id']).toBe(down.calls[0]!.headers['webhook-id']);
    await t.request('PUT', `/api/2.0/event-endpoints/${mine.uuid}`, { token: owner.token, body: { url: ok.url } });
    clock.advance(2_400);
    await worker().runOnce();
    expect(ok.calls).toHaveLength(1);
    expect(ok.calls[0]!.headers['webhook-id']).toBe(down.calls[0]!.headers['webhook-id']);
    expect(verifiedBody(mine.secret, ok.calls[0]!)).toMatchObject({ type: 'inbound.received' });
    delivery = await deliveryOf(mine.uuid, owner.token);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200, last_error: null, next_attempt_at: '' });
    expect(delivery.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 200]);
    expect((await t.request('GET', `/api/2.0/event-endpoints/${mine.uuid}`, { token: owner.token })).json().data.failing_since).toBe('');
    clock.set('2026-06-01T08:00:00Z');
  });

  it('takes again a delivery whose worker died once its lease has passed, and ignores the dead attempt’s late outcome', async () => {
    const owner = await t.user();
    const mine = await endpoint(owner, { url: ok.url, events: ['inbound.received'] });
    await inbound(owner.token);
    await t.services.eventOutbox.fanOut(500, 2, (event) => event.data);
    const [taken] = await t.services.eventOutbox.claimDue(8, 60_000);
    expect(taken).toBeDefined();
    await worker().runOnce();
    expect(ok.calls).toHaveLength(0); // leased to the worker that died
    clock.advance(61_000);
    await worker().runOnce();
    expect(ok.calls).toHaveLength(1);
    expect(await t.services.eventOutbox.record(taken!, { statusCode: 500, latencyMs: 1, error: 'late' }, null, true)).toBe(false);
    expect(await deliveryOf(mine.uuid, owner.token)).toMatchObject({ status: 'delivered', attempts: 2 });

    // The same while the next attempt is still under way: only that attempt's outcome counts.
    await inbound(owner.token, '07700900602');
    await t.services.eventOutbox.fanOut(500, 2, (event) => event.data);
    const [first] = await t.services.eventOutbox.claimDue(8, 60_000);
    clock.advance(61_000);
    const [second] = await t.services.eventOutbox.claimDue(8, 60_000);
    expect(second).toMatchObject({ uuid: first!.uuid, attempts: 2 });
    expect(await t.services.eventOutbox.record(first!, { statusCode: 500, latencyMs: 1, error: 'late' }, clock.now(), true)).toBe(false);
    expect(await t.services.eventOutbox.record(second!, { statusCode: 200, latencyMs: 1, error: null }, null, true)).toBe(true);
    expect(await deliveryOf(mine.uuid, owner.token)).toMatchObject({ uuid: first!.uuid, status: 'delivered', attempts: 2, last_status_code: 200 });
    clock.set('2026-06-01T08:00:00Z');
  });

  it('gives a delivery up after 24 hours, disables an endpoint failing that long and e-mails its creator', async () => {
    const owner = await t.user();
    // A receiver of its own: the other tests' failing deliveries are due again 24 hours on too.
    const dead = await startWebhookReceiver({ status: 500 });
    const mine = await endpoint(owner, { url: dead.url, events: ['inbound.received'] });
    await inbound(owner.token);
    await worker().runOnce();
    clock.advance(24 * 3_600_000 + 60_000);
    try {
      await worker().runOnce();
      expect(dead.calls).toHaveLength(2);
      expect(await deliveryOf(mine.uuid, owner.token)).toMatchObject({ status: 'failed', attempts: 2, finished_at: expect.stringMatching(/^2026-06-02/) });
      const shown = (await t.request('GET', `/api/2.0/event-endpoints/${mine.uuid}`, { token: owner.token })).json().data;
      expect(shown).toMatchObject({ enabled: false, disabled_reason: 'Every call failed for 24 hours; the last: The receiver answered 500.' });
      // Disabled: nothing more is recorded or called.
      await inbound(owner.token, '07700900601');
      await worker().runOnce();
      expect(dead.calls).toHaveLength(2);
      const mails = createAccountMailWorker({
        outbox: t.services.accountMail,
        mailer: createMailer({ smtpUrl: sink.url, outboxDir: path.join(dataDir, 'outbox'), from: 'Herald <team@herald.test>', log: () => {}, timeoutMs: 2000 }),
        clock,
        log: () => {},
      });
      await mails.runOnce();
      const sent = sink.messages.filter((message) => message.to.includes(owner.email));
      expect(sent).toHaveLength(1);
      expect(sent[0]!.text).toContain(dead.url);
      expect(sent[0]!.text).toContain(`${TEST_PUBLIC_URL}/event-endpoints/${mine.uuid}`);
      // Enabled again: it starts afresh, and a redelivery goes out.
      const enabled = (await t.request('PUT', `/api/2.0/event-endpoints/${mine.uuid}`, { token: owner.token, body: { enabled: true, url: ok.url } })).json()
        .data;
      expect(enabled).toMatchObject({ enabled: true, disabled_reason: null, failing_since: '' });
      const failed = await deliveryOf(mine.uuid, owner.token);
      const again = await t.request('POST', `/api/2.0/event-endpoints/${mine.uuid}/deliveries/${failed.uuid}/redeliver`, { token: owner.token });
      expect(again.statusCode).toBe(202);
      expect(again.json().data).toMatchObject({ status: 'pending' });
      await worker().runOnce();
      expect(ok.calls.map((call) => call.headers['webhook-id'])).toEqual([failed.uuid]);
    } finally {
      clock.set('2026-06-01T08:00:00Z');
      await dead.close();
    }
  });

  it('writes an event only with the change: a change rolled back leaves none', async () => {
    const owner = await t.user();
    await endpoint(owner, { url: ok.url, events: ['contact.opted_out'] });
    const team = (await t.database.pool.query(`SELECT t.id FROM teams t WHERE t.uuid = $1`, [owner.teamUuid])).rows[0].id;
    const count = async () => (await t.database.pool.query(`SELECT count(*)::int AS n FROM event_outbox WHERE team_id = $1`, [team])).rows[0].n;
    const insert = sql`INSERT INTO opt_out_events (team_id, phone_number, kind, source, created_at) VALUES (${team}, '447700900777', 'opt_out', 'api', now())`;
    await t.database.db
      .transaction(async (tx) => {
        await tx.execute(insert);
        expect(await count()).toBe(0); // not visible before the commit
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await count()).toBe(0);
    await t.database.db.execute(insert);
    expect(await count()).toBe(1);
    await worker().runOnce();
    expect(ok.calls).toHaveLength(1);
    expect(await count()).toBe(0);
  });
});

describe('event endpoints: the payloads', () => {
  // Runs last: the tests above drove every type through the database's triggers to a receiver.
  it('parsed a body of every event type, and of the test call, with its schema', () => {
    expect([...parsedTypes].sort()).toEqual([...EVENT_TYPES, TEST_EVENT_TYPE].sort());
  });
});
