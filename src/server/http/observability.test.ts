import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { connectDatabase, type Database } from '../db/client';
import { freePort } from '../testing/processes';
import { promtool } from '../testing/promtool';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';

// /healthz, /readyz and /metrics of an API process, over real HTTP (a listening server, fetch) on a
// real PostgreSQL; the database out of reach is a real refused connection (nothing listens on its port).
// Each guarantee was seen red once without its protection:
// - the METRICS_TOKEN check (skipped in http/observability.ts: the scrape without a token answered 200);
// - route patterns as labels (`request.url` in place of `request.routeOptions.url`: the raw URLs became series);
// - the database's numbers (the scrape's state never stored: both apps read 0);
// - the 503 with Retry-After when the database cannot be reached (the mapping in http/errors.ts skipped: 500 "Server Error");
// - readiness naming the database when it is unreachable (the check made to answer ok: 200);
// - probes that skip the vanity-host lookup (tracked-links.routes.ts): without it /healthz and
//   /metrics on a host other than PUBLIC_URL's asked the database, and answered 503 while it was away;
// - `promtool check metrics` on a whole scrape (gateway series included): red with the gauges named
//   `herald_messages_total` and co., and with prom-client's `nodejs_active_handles_total` gauges;
// - what waits on purpose kept out of `herald_queue_depth` (service-state.ts): without it a planned
//   pause, a throttled plan in quiet hours and runs held for quiet hours all counted as queued.
const TOKEN = 'metrics-token-0123456789abcdef';
let t: TestApp;
let base: string;
let user: TestUser;
let campaignUuids: string[];
/** A second process's app on the same database. */
let other: FastifyInstance;
let otherMetrics: Awaited<ReturnType<typeof buildApp>>['metrics'];
let otherBase: string;

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
}

const scrape = (at: string, token: string | null = TOKEN) => fetch(`${at}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

/** `name{labels} value` lines of a scrape, as a map from the series to its value. */
function series(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

async function sql(text: string, values: unknown[] = []) {
  return (await t.database.pool.query(text, values)).rows;
}

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
  base = await listen(t.app);
  user = await t.user();
  const [{ id: teamId }] = await sql('SELECT id FROM teams WHERE uuid = $1', [user.teamUuid]);
  const [{ id: templateId }] = await sql(`INSERT INTO templates (team_id, name, body, sender) VALUES ($1, 'T', 'Hi', 'Herald') RETURNING id`, [teamId]);
  // Two campaigns as the engine leaves them: counters by status (queued is what is left of message_count).
  const campaigns = await sql(
    `INSERT INTO campaigns (team_id, template_id, name, sender, scheduled_send_date, expiry_date, status,
                            message_count, submitted_count, delivered_count, failed_count, unsent_count)
     VALUES ($1, $2, 'Sending', 'Herald', now(), now() + interval '1 day', 1, 20, 2, 3, 1, 1),
            ($1, $2, 'Sent', 'Herald', now() - interval '1 day', now() + interval '1 day', 2, 7, 0, 5, 1, 1)
     RETURNING id, uuid`,
    [teamId, templateId],
  );
  campaignUuids = campaigns.map((row) => row.uuid as string);
  const [{ id: userId }] = await sql('SELECT id FROM users WHERE uuid = $1', [user.userUuid]);
  await sql(
    `INSERT INTO report_jobs (team_id, user_id, campaign_id, type, status, email)
     VALUES ($1, $2, $3, 'delivery', 'sent', 'a@herald.test'), ($1, $2, $3, 'delivery', 'sent', 'a@herald.test'), ($1, $2, $3, 'unsent', 'failed', 'a@herald.test')`,
    [teamId, userId, campaigns[0].id],
  );
  const endpoint = await t.database.pool.query(
    `INSERT INTO event_endpoints (team_id, url, events, secret_encrypted, created_at, updated_at) VALUES ($1, 'https://e.example/h', '{report.ready}', '\\x00', now(), now()) RETURNING id`,
    [teamId],
  );
  await t.database.pool.query(
    `INSERT INTO event_deliveries (endpoint_id, type, payload, status, next_attempt_at, retry_until, created_at)
     SELECT $1, 'inbound.received', '{}', s, now(), now(), now() FROM unnest('{pending,pending,failed}'::text[]) s`,
    [endpoint.rows[0].id],
  );
  await sql(
    `INSERT INTO inbound_messages (team_id, from_number, body, source) VALUES ($1, '+447700900001', 'JOIN', 'gateway'), (NULL, '+447700900002', 'HI', 'gateway')`,
    [teamId],
  );
  const [{ id: groupId }] = await sql(`INSERT INTO contact_groups (team_id, name) VALUES ($1, 'G') RETURNING id`, [teamId]);
  await sql(`INSERT INTO contact_imports (team_id, contact_group_id, status, rows_total) VALUES ($1, $2, 'completed', 1200), ($1, $2, 'failed', 34)`, [
    teamId,
    groupId,
  ]);
  await sql(`INSERT INTO outbound_replies (team_id, to_number, sender, body) VALUES ($1, '+447700900001', 'Herald', 'Welcome')`, [teamId]);

  const second = await buildApp({ config: t.config, database: t.database, secretKey: randomBytes(32), logger: false, dashboardDir: '/nonexistent' });
  other = second.app;
  otherMetrics = second.metrics;
  otherBase = await listen(other);
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

describe('liveness and readiness', () => {
  it('/healthz answers 200 while the process serves', async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('/readyz names each check: the database answers, migrations are current, and an API process has no gateway to wait for', async () => {
    const response = await fetch(`${base}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: {
        database: { status: 'ok' },
        migrations: { status: 'ok' },
        sms_gateway: { status: 'skipped', detail: 'this process does not send (--role api)' },
      },
    });
  });

  it('/readyz is 503 naming migrations when the database lacks one this version ships', async () => {
    await sql(`DELETE FROM schema_migrations WHERE name = '0031_simulator_fences.sql'`);
    try {
      const response = await fetch(`${base}/readyz`);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      const body = await response.json();
      expect(body.error).toMatchObject({ code: 503, http_code: 503, message: expect.stringContaining('migrations') });
      expect(body.error.errors).toEqual({ migrations: [expect.stringContaining('0031_simulator_fences.sql')] });
      expect(body.checks).toMatchObject({ database: { status: 'ok' }, migrations: { status: 'failing' } });
    } finally {
      await sql(`INSERT INTO schema_migrations (name) VALUES ('0031_simulator_fences.sql')`);
    }
  });
});

describe('/metrics', () => {
  it('answers only the METRICS_TOKEN: none or another is 401 in the house shape, never a 5xx', async () => {
    const missing = await scrape(base, null);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await missing.json()).toEqual({
      error: { code: 401, http_code: 401, message: expect.stringContaining('METRICS_TOKEN'), request_id: expect.any(String) },
    });

    const wrong = await scrape(base, 'not-the-metrics-token-at-all');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      error: { code: 401, http_code: 401, message: expect.stringContaining('not the metrics token'), request_id: expect.any(String) },
    });
    // An API token is not the metrics token either.
    expect((await scrape(base, user.token)).status).toBe(401);

    const right = await scrape(base);
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it("reports the service's state from the database (the same from every process on it) and the process defaults", async () => {
    for (const at of [base, otherBase]) {
      const values = series(await (await scrape(at)).text());
      expect(values.get('herald_messages{status="queued"}')).toBe(13 + 0); // 20-2-3-1-1 and 7-0-5-1-1
      expect(values.get('herald_messages{status="submitted"}')).toBe(2);
      expect(values.get('herald_messages{status="delivered"}')).toBe(8);
      expect(values.get('herald_messages{status="failed"}')).toBe(2);
      expect(values.get('herald_messages{status="unsent"}')).toBe(2);
      expect(values.get('herald_queue_depth')).toBe(13 + 1); // the sending campaign's queue and one keyword reply
      expect(values.get('herald_report_jobs{status="sent"}')).toBe(2);
      expect(values.get('herald_report_jobs{status="failed"}')).toBe(1);
      expect(values.get('herald_report_jobs{status="queued"}')).toBe(0);
      expect(values.get('herald_inbound_messages')).toBe(2);
      expect(values.get('herald_import_rows')).toBe(1234);
      expect(values.get('herald_event_deliveries{status="pending"}')).toBe(2);
      expect(values.get('herald_event_deliveries{status="failed"}')).toBe(1);
      expect(values.get('herald_event_deliveries{status="delivered"}')).toBe(0);
      expect(values.get('herald_event_deliveries{status="outbox"}')).toBe(0);
      expect(values.has('process_cpu_user_seconds_total')).toBe(true);
      expect(values.has('nodejs_heap_size_used_bytes')).toBe(true);
      // An API process has no SMS gateway: no bind state to report (a 0 would read as "disconnected").
      expect([...values.keys()].some((name) => name.startsWith('herald_gateway_'))).toBe(false);
    }

    // A paused campaign's messages wait, but not in the queue the engine works through.
    await sql(`UPDATE campaigns SET manually_paused = true WHERE uuid = $1`, [campaignUuids[0]]);
    const paused = series(await (await scrape(otherBase)).text());
    expect(paused.get('herald_queue_depth')).toBe(1);
    expect(paused.get('herald_messages{status="queued"}')).toBe(13);
    await sql(`UPDATE campaigns SET manually_paused = NULL WHERE uuid = $1`, [campaignUuids[0]]);
  });

  it('holds, rather than queues, what waits on purpose: a planned pause, a throttled plan in quiet hours, runs held for quiet hours', async () => {
    const [campaign] = await sql('SELECT id, team_id FROM campaigns WHERE uuid = $1', [campaignUuids[0]]);
    const state = async () => {
      const values = series(await (await scrape(base)).text());
      return { queued: values.get('herald_queue_depth'), held: values.get('herald_queue_held') };
    };
    expect(await state()).toEqual({ queued: 13 + 1, held: 0 });

    // Inside one of its planned pauses: all 13 wait on purpose; the keyword reply is still queued.
    await sql(`INSERT INTO campaign_pauses (campaign_id, start_at, end_at) VALUES ($1, now() - interval '1 minute', now() + interval '1 hour')`, [campaign.id]);
    expect(await state()).toEqual({ queued: 1, held: 13 });
    await sql('DELETE FROM campaign_pauses WHERE campaign_id = $1', [campaign.id]);

    // A run of 5 held for quiet hours in its numbers' zone, until they end; once they have, it is queued again.
    await sql(
      `INSERT INTO send_batches (campaign_id, first_sequence, last_sequence, owner, lease_until) VALUES ($1, 11, 15, 'held', now() + interval '1 hour')`,
      [campaign.id],
    );
    expect(await state()).toEqual({ queued: 8 + 1, held: 5 });
    await sql(`UPDATE send_batches SET lease_until = now() - interval '1 minute' WHERE campaign_id = $1`, [campaign.id]);
    expect(await state()).toEqual({ queued: 13 + 1, held: 0 });
    await sql('DELETE FROM send_batches WHERE campaign_id = $1', [campaign.id]);

    // A throttled plan pauses through its team's quiet hours (here the two hours around now, in UTC), unless the campaign ignores them.
    const hhmm = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString().slice(11, 16);
    const quiet = { start: hhmm(-3_600_000), end: hhmm(3_600_000), days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] };
    await sql(`UPDATE teams SET quiet_hours = $2, time_zone = 'UTC' WHERE id = $1`, [campaign.team_id, JSON.stringify(quiet)]);
    await sql('UPDATE campaigns SET throttled = true WHERE id = $1', [campaign.id]);
    try {
      expect(await state()).toEqual({ queued: 1, held: 13 });
      await sql('UPDATE campaigns SET ignore_quiet_hours = true WHERE id = $1', [campaign.id]);
      expect(await state()).toEqual({ queued: 13 + 1, held: 0 });
    } finally {
      await sql('UPDATE campaigns SET throttled = false, ignore_quiet_hours = false WHERE id = $1', [campaign.id]);
      await sql(`UPDATE teams SET quiet_hours = NULL, time_zone = NULL WHERE id = $1`, [campaign.team_id]);
    }
  });

  it('passes `promtool check metrics`: a whole scrape over HTTP, the gateway series of a sending process included', async () => {
    otherMetrics.useGateway({ connected: () => true });
    otherMetrics.observeSubmit(0.02, 3, ['ESME_RINVDSTADR']);
    const text = await (await scrape(otherBase)).text();
    expect(text).toMatch(/^herald_gateway_messages_total 3$/m);
    expect(text).toMatch(/^herald_messages\{status="delivered"\} 8$/m);
    const checked = await promtool(['check', 'metrics'], text);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  });

  it('times requests by route pattern, never by raw URL: unknown addresses and identifiers make no new series', async () => {
    for (const uuid of campaignUuids) {
      expect((await fetch(`${base}/api/2.0/campaigns/${uuid}`, { headers: { authorization: `Bearer ${user.token}` } })).status).toBe(200);
    }
    for (let i = 0; i < 5; i++) {
      expect((await fetch(`${base}/no-such-page-${randomBytes(4).toString('hex')}?x=${i}`)).status).toBe(404);
      expect((await fetch(`${base}/api/2.0/campaigns/${randomBytes(16).toString('hex')}`, { headers: { authorization: `Bearer ${user.token}` } })).status).toBe(
        404,
      );
    }
    const text = await (await scrape(base)).text();
    const routes = new Set([...text.matchAll(/^herald_http_request_duration_seconds_count\{route="([^"]*)"/gm)].map((match) => match[1]));
    expect(routes).toContain('/api/2.0/campaigns/:campaign_uuid');
    expect(routes).toContain('unmatched');
    expect(text).not.toMatch(/no-such-page|campaigns\/[0-9a-f]{8}/);
    const durations = series(text);
    const campaign = [...durations.entries()].filter(([key]) =>
      key.startsWith('herald_http_request_duration_seconds_count{route="/api/2.0/campaigns/:campaign_uuid",method="GET"'),
    );
    // Two found, five malformed identifiers refused 404: two series by status, not seven.
    expect(Object.fromEntries(campaign)).toEqual({
      'herald_http_request_duration_seconds_count{route="/api/2.0/campaigns/:campaign_uuid",method="GET",status="200"}': 2,
      'herald_http_request_duration_seconds_count{route="/api/2.0/campaigns/:campaign_uuid",method="GET",status="404"}': 5,
    });
    expect(durations.get('herald_http_request_duration_seconds_count{route="unmatched",method="GET",status="404"}')).toBe(5);

    // More unknown addresses add to the count, never a series.
    const before = text.split('\n').filter((line) => line.startsWith('herald_http_request_duration_seconds_count')).length;
    for (let i = 0; i < 5; i++) await fetch(`${base}/elsewhere/${randomBytes(6).toString('hex')}`);
    const after = (await (await scrape(base)).text()).split('\n').filter((line) => line.startsWith('herald_http_request_duration_seconds_count')).length;
    expect(after).toBe(before);
  });
});

describe('the database out of reach', () => {
  let down: FastifyInstance;
  let downBase: string;
  let unreachable: Database;

  beforeAll(async () => {
    // Nothing listens on this port: every connection is refused, as when the server is stopped.
    unreachable = connectDatabase(`postgres://herald:herald@127.0.0.1:${await freePort()}/herald`, { max: 2 });
    const built = await buildApp({ config: t.config, database: unreachable, secretKey: randomBytes(32), logger: false, dashboardDir: '/nonexistent' });
    down = built.app;
    downBase = await listen(down);
  });
  afterAll(async () => {
    await down?.close();
    await unreachable?.close();
  });

  it('an API request is 503 with Retry-After in the house shape, not 500', async () => {
    const response = await fetch(`${downBase}/api/2.0/campaigns/`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({
      error: { code: 503, http_code: 503, message: expect.stringContaining('database cannot be reached'), request_id: expect.any(String) },
    });
  });

  it('the process is alive but not ready, and /readyz names the database', async () => {
    expect((await fetch(`${downBase}/healthz`)).status).toBe(200);
    const response = await fetch(`${downBase}/readyz`);
    expect(response.status).toBe(503);
    const body = await response.json();
    expect(body.status).toBe('not_ready');
    expect(body.checks.database).toEqual({ status: 'failing', detail: expect.stringContaining('unreachable') });
    expect(Object.keys(body.error.errors)).toEqual(['database', 'migrations']);
    expect(JSON.stringify(body)).not.toContain('127.0.0.1'); // the body is public: no address of the database
  });

  it("/metrics still answers the process's own series, without the database's", async () => {
    const response = await scrape(downBase);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('herald_http_request_duration_seconds_count{route="/api/2.0/campaigns/",method="GET",status="503"} 1');
    expect(text).not.toMatch(/^herald_messages\{/m);
    expect(text).not.toMatch(/^herald_queue_depth /m);
  });
});
