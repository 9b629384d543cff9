import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatTimestamp } from '../lib/time';
import { campaignDueNow, childEnv, freePort, runHerald, signIn, stopHeralds, waitForHealthy, type ApiCall, type HeraldProcess } from '../testing/processes';
import { localLogTime } from './logger';

// Herald's log as an operator reads it, from the output of real processes: `LOG_FORMAT=json` (what a
// journal or a container runtime gets) and `LOG_FORMAT=pretty` (a terminal), requests over sockets,
// campaigns sent by the simulator.
//
// Seen red once each: Fastify's own request logging left on (two lines for each request id); the
// request id taken from X-Request-Id without its check (the unsafe id came back); the polls' quiet
// paths emptied (a /healthz line at info); the engine's lifecycle calls removed (no campaign.started
// nor campaign.finished); the stop's line removed from the campaigns service (no campaign.stopped);
// the client's address given to Fastify's `req` serializer as `remoteAddress` (it reads `ip`: the
// address was missing from every line); the start's opening of the database outside the fatal path
// (a bare `connect ECONNREFUSED` on stderr, no JSON, no DATABASE_URL); the pool's close without waiting
// for its connections to end (a clean stop warned `database: idle connection error: terminating
// connection due to administrator command`).
const EMAIL = 'admin@logs.test';
const PASSWORD = 'logs-password-1';
const ZONE = 'Asia/Kolkata'; // +05:30 on the terminal's process: a time that is not UTC's, nor whole hours away

type Line = {
  level: number;
  time: string;
  msg: string;
  request_id?: string;
  req?: { method: string; url: string; remoteAddress?: string };
  res?: { statusCode: number };
  responseTime?: number;
  user?: string;
  team?: string;
  token?: string;
  event?: string;
  campaign?: { uuid: string; name: string };
  counts?: Record<string, number>;
  rate_per_second?: number | null;
};

let jsonDir: string;
let prettyDir: string;
let json: HeraldProcess;
let pretty: HeraldProcess;
let jsonPort: number;
let prettyPort: number;
let call: ApiCall;

/** Every line the JSON process wrote, each parsed (a line that is not JSON fails the test). */
const jsonLines = (): Line[] =>
  json
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Line;
      } catch {
        throw new Error(`A line of LOG_FORMAT=json output is not JSON: ${line}`);
      }
    });
const linesOf = (requestId: string) => jsonLines().filter((line) => line.request_id === requestId);
const eventsOf = (campaign: string, event: string) => jsonLines().filter((line) => line.event === event && line.campaign?.uuid === campaign);

/** A GET whose answer is read to its end (an answer left unread holds its connection open). */
const get = async (port: number, route: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`http://127.0.0.1:${port}${route}`, { headers });
  const body = await response.text();
  return { status: response.status, headers: response.headers, json: () => JSON.parse(body) };
};

beforeAll(async () => {
  jsonDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-logs-json-'));
  prettyDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-logs-pretty-'));
  [jsonPort, prettyPort] = [await freePort(), await freePort()];
  const shared = { HERALD_ADMIN_EMAIL: EMAIL, HERALD_ADMIN_PASSWORD: PASSWORD, ENGINE_TICK_MS: '100', HOST: '127.0.0.1' };
  json = runHerald('src/server/main.ts', [], childEnv({ ...shared, DATA_DIR: jsonDir, PORT: String(jsonPort), LOG_FORMAT: 'json', LOG_LEVEL: 'info' }));
  pretty = runHerald(
    'src/server/main.ts',
    ['--role', 'api'],
    // Behind a proxy on the same machine: the address it forwards is the client's.
    childEnv({
      ...shared,
      DATA_DIR: prettyDir,
      PORT: String(prettyPort),
      LOG_FORMAT: 'pretty',
      LOG_LEVEL: 'debug',
      APP_TIMEZONE: ZONE,
      TRUST_PROXY: '127.0.0.1',
    }),
  );
  await Promise.all([waitForHealthy(jsonPort, json), waitForHealthy(prettyPort, pretty)]);
  call = await signIn(jsonPort, EMAIL, PASSWORD);
}, 180_000);

afterAll(async () => {
  await stopHeralds(json, pretty);
  for (const dir of [jsonDir, prettyDir]) if (dir) await fs.rm(dir, { recursive: true, force: true });
}, 60_000);

describe('LOG_FORMAT=json: one object a line, for machines', () => {
  it('writes every line as JSON with an ISO 8601 UTC time, its first start included', () => {
    const lines = jsonLines();
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      expect(line.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(typeof line.msg).toBe('string');
    }
    expect(lines.some((line) => line.msg.startsWith('database: applied migration '))).toBe(true);
    expect(lines.some((line) => line.msg.startsWith('Herald is ready on '))).toBe(true);
  });

  it('logs each request once, under the id the client gave, which comes back in the header and the error body', async () => {
    // Without TRUST_PROXY, a forwarded address is the client's claim, not its address.
    const response = await get(jsonPort, '/api/2.0/campaigns?page=2', { 'X-Request-Id': 'ci-run.42:a', 'X-Forwarded-For': '203.0.113.9' });
    expect(response.status).toBe(401);
    expect(response.headers.get('x-request-id')).toBe('ci-run.42:a');
    expect((await response.json()).error).toMatchObject({ code: 401, request_id: 'ci-run.42:a' });
    await vi.waitFor(() => expect(linesOf('ci-run.42:a').length).toBeGreaterThan(0));
    const lines = linesOf('ci-run.42:a');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/api/2.0/campaigns?page=2', remoteAddress: '127.0.0.1' },
      res: { statusCode: 401 },
    });
    expect(lines[0]!.msg).toMatch(/^GET \/api\/2\.0\/campaigns\?page=2 401 [\d.]+ ms from 127\.0\.0\.1$/);
    expect(lines[0]!.responseTime).toBeGreaterThanOrEqual(0);
  });

  it('makes a new id when the client gave none, or one that could bend a line or a header', async () => {
    for (const given of [undefined, 'x'.repeat(129), 'two words', 'quote"d']) {
      const response = await get(jsonPort, '/api/2.0/nothing-here', given === undefined ? {} : { 'X-Request-Id': given });
      expect(response.status).toBe(404);
      const id = response.headers.get('x-request-id')!;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect((await response.json()).error.request_id).toBe(id);
      await vi.waitFor(() => expect(linesOf(id)).toHaveLength(1));
    }
    // A path the router refuses before any hook runs still answers with its id.
    const refused = await get(jsonPort, '/api/2.0/%E0%A4%A', { 'X-Request-Id': 'bad-path-1' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-request-id')).toBe('bad-path-1');
    expect((await refused.json()).error.request_id).toBe('bad-path-1');
  });

  it('names the user, the team and the token of a signed-in request', async () => {
    const created = await call('POST', '/tokens/', { name: 'Nightly export' });
    const response = await get(jsonPort, '/api/2.0/templates/', { authorization: `Bearer ${created.data.token}`, 'X-Request-Id': 'token-call-1' });
    expect(response.status).toBe(200);
    await vi.waitFor(() => expect(linesOf('token-call-1')).toHaveLength(1));
    expect(linesOf('token-call-1')[0]).toMatchObject({ user: EMAIL, team: 'Herald', token: 'Nightly export', res: { statusCode: 200 } });
    expect(linesOf('token-call-1')[0]!.msg).toContain(`· ${EMAIL} (Herald, Nightly export)`);
    // The token itself is never in the log.
    expect(json.output()).not.toContain(created.data.token);
  });

  it('leaves health, readiness and metrics polls out at info', async () => {
    for (const route of ['/healthz', '/readyz', '/metrics']) await get(jsonPort, route, { 'X-Request-Id': `poll${route.replace('/', '-')}` });
    // A request after them: once its line is written, theirs would have been.
    await get(jsonPort, '/api/2.0/campaigns', { 'X-Request-Id': 'after-polls' });
    await vi.waitFor(() => expect(linesOf('after-polls')).toHaveLength(1));
    expect(jsonLines().filter((line) => line.request_id?.startsWith('poll-'))).toEqual([]);
  });

  it('says when a campaign starts and finishes, with its counts and rate', async () => {
    const campaign = await campaignDueNow(call, { name: 'Logged send', recipients: 7, firstNumber: 910100 });
    await vi.waitFor(() => expect(eventsOf(campaign, 'campaign.finished')).toHaveLength(1), { timeout: 45_000, interval: 200 });
    const [started] = eventsOf(campaign, 'campaign.started');
    expect(started).toMatchObject({ level: 30, team: 'Herald', campaign: { uuid: campaign, name: 'Logged send' }, counts: { recipients: 7 } });
    expect(started!.msg).toBe('campaign started: "Logged send" (team Herald), 7 recipients');
    const [finished] = eventsOf(campaign, 'campaign.finished');
    expect(finished!.counts).toMatchObject({ recipients: 7, sent: 7, unsent: 0, queued: 0 });
    expect(finished!.rate_per_second).toBeGreaterThan(0);
    expect(finished!.msg).toMatch(
      /^campaign finished: "Logged send" \(team Herald\), 7 sent \(\d delivered, \d failed\), 0 unsent in \d+s, [\d.]+ messages\/s$/,
    );
    expect(eventsOf(campaign, 'campaign.started')).toHaveLength(1);
  }, 60_000);

  it('says who paused, resumed and stopped a campaign, and what its stop left unsent', async () => {
    const campaign = await campaignDueNow(call, {
      name: 'Logged pauses',
      recipients: 40,
      firstNumber: 910200,
      // Spread over an hour: a message a minute and a half, so most are still queued when it stops.
      extra: { throttled: true, scheduled_finish_date: formatTimestamp(new Date(Date.now() + 3_600_000), 'Europe/London') },
    });
    await vi.waitFor(() => expect(eventsOf(campaign, 'campaign.started')).toHaveLength(1), { timeout: 30_000, interval: 200 });
    await call('PUT', `/campaigns/${campaign}/toggle-paused-status`);
    await call('PUT', `/campaigns/${campaign}/toggle-paused-status`);
    await call('PUT', `/campaigns/${campaign}/stop`);
    await vi.waitFor(() => expect(eventsOf(campaign, 'campaign.finished')).toHaveLength(1), { timeout: 30_000, interval: 200 });
    for (const event of ['paused', 'resumed', 'stopped']) {
      const lines = eventsOf(campaign, `campaign.${event}`);
      expect(lines, event).toHaveLength(1);
      expect(lines[0]).toMatchObject({ user: EMAIL, counts: { recipients: 40 } });
      expect(lines[0]!.msg).toContain(`campaign ${event} by ${EMAIL}: "Logged pauses" (team Herald)`);
    }
    const [finished] = eventsOf(campaign, 'campaign.finished');
    expect(finished!.counts!.unsent).toBeGreaterThan(30);
    const counts = finished!.counts!;
    expect(counts.sent! + counts.unsent!).toBe(40);
  }, 60_000);
});

describe('LOG_FORMAT=pretty: a line a person reads, on APP_TIMEZONE’s clock', () => {
  it('writes one readable line per request, its time in APP_TIMEZONE and its id in front; polls at debug', async () => {
    const before = Date.now();
    await get(prettyPort, '/api/2.0/campaigns', { 'X-Request-Id': 'pretty-1' });
    await get(prettyPort, '/healthz', { 'X-Request-Id': 'pretty-poll' });
    await vi.waitFor(() => expect(pretty.output()).toContain('pretty-poll'));
    const lines = pretty.output().split('\n');
    const line = lines.find((candidate) => candidate.includes('pretty-1'))!;
    // `2026-11-26 23:41:50.384 INFO: pretty-1 GET /api/2.0/campaigns 401 6 ms from 127.0.0.1`: nothing else on it, nothing after it.
    expect(line).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} INFO: pretty-1 GET \/api\/2\.0\/campaigns 401 [\d.]+ ms from 127\.0\.0\.1$/);
    const shown = line.slice(0, 16); // to the minute
    expect([localLogTime(ZONE)(before).slice(0, 16), localLogTime(ZONE)(Date.now()).slice(0, 16)]).toContain(shown);
    expect(lines.filter((candidate) => candidate.includes('pretty-1'))).toHaveLength(1);
    expect(lines.find((candidate) => candidate.includes('pretty-poll'))).toMatch(/ DEBUG: pretty-poll GET \/healthz 200 [\d.]+ ms from 127\.0\.0\.1$/);
    // No JSON on a terminal.
    expect(lines.filter((candidate) => candidate.startsWith('{'))).toEqual([]);
  });
});

describe('behind TRUST_PROXY, the forwarded client', () => {
  it('names the address the trusted proxy forwarded', async () => {
    await get(prettyPort, '/api/2.0/campaigns', { 'X-Request-Id': 'proxied-1', 'X-Forwarded-For': '198.51.100.23' });
    await vi.waitFor(() => expect(pretty.output()).toContain('proxied-1'));
    const line = pretty
      .output()
      .split('\n')
      .find((candidate) => candidate.includes('proxied-1'));
    expect(line).toMatch(/ INFO: proxied-1 GET \/api\/2\.0\/campaigns 401 [\d.]+ ms from 198\.51\.100\.23$/);
  });
});

describe('a start that cannot reach DATABASE_URL', () => {
  it('says so on one fatal JSON line naming DATABASE_URL (never its password), and exits 1', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-logs-nodb-'));
    try {
      // Nothing listens on this port: the connection is refused, as when the server is down.
      const url = `postgres://herald:db-Secret-42@127.0.0.1:${await freePort()}/herald`;
      const failed = runHerald(
        'src/server/main.ts',
        [],
        childEnv({ DATABASE_URL: url, DATA_DIR: dataDir, PORT: String(await freePort()), LOG_FORMAT: 'json', LOG_LEVEL: 'info' }),
      );
      expect(await failed.exited).toBe(1);
      const lines = failed
        .output()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Line);
      const fatal = lines.filter((line) => line.level === 60);
      expect(fatal).toHaveLength(1);
      expect(fatal[0]!.msg).toMatch(/^Herald could not start: the database in DATABASE_URL cannot be reached \(.*ECONNREFUSED.*\)/);
      expect(failed.output()).not.toContain('db-Secret-42');
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a clean stop', () => {
  it('after requests and campaigns, SIGTERM stops with exit 0 and no warning or error', async () => {
    expect(await call('GET', '/campaigns/')).toBeDefined();
    json.child.kill('SIGTERM');
    expect(await json.exited).toBe(0);
    const lines = jsonLines();
    const from = lines.findIndex((line) => line.msg === 'SIGTERM: stopping');
    expect(from).toBeGreaterThan(0);
    expect(lines.slice(from).filter((line) => line.level >= 40)).toEqual([]);
  });
});
