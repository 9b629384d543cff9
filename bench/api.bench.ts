/**
 * API throughput benchmark (issue #9): autocannon on loopback, 50 connections, against
 * `GET /api/2.0/templates/` (first page of 15, 10,000 templates in the team) and
 * `GET /api/2.0/campaigns/{uuid}` on a fresh embedded PostgreSQL; beside each, in the same run, the
 * floor: a bare `node:http` server answering the very bytes Herald answered. autocannon runs in its
 * own process so it does not share an event loop with either server. Identical concurrent GETs share
 * one read in Herald (http/shared-reads.ts), so it also measures 50 pages asked for in turn, which cannot.
 * Run: `node --import tsx bench/api.bench.ts [seconds]`.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { startBenchHerald } from './lib/herald';
import { formatTimestamp } from '../src/server/lib/time';
import { emitResult, type Figure } from './lib/result';

const SECONDS = Number(process.argv[2] ?? 10);
const CONNECTIONS = 50;
const TEMPLATES = 10_000;
const AUTOCANNON = path.resolve('node_modules/autocannon/autocannon.js');
const AUTOCANNON_PATHS = path.resolve('bench/lib/autocannon-paths.ts');
/** Pages of the templates list read in turn for the figure of reads that cannot be shared. */
const DISTINCT_PAGES = 50;
const run = promisify(execFile);

interface Load {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

/**
 * autocannon as a child process, its JSON summary read back. Any non-2xx or error is a failure.
 * With `paths`, each request asks for the next of them (`url` is then the origin).
 */
async function load(url: string, headers: Record<string, string>, seconds: number, paths?: string[]): Promise<Load> {
  let args: string[];
  if (paths) {
    args = ['--import', 'tsx', AUTOCANNON_PATHS, url, JSON.stringify(paths), String(seconds), String(CONNECTIONS), JSON.stringify(headers)];
  } else {
    args = [AUTOCANNON, '--json', '-c', String(CONNECTIONS), '-d', String(seconds)];
    for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
    args.push(url);
  }
  const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
  const summary = JSON.parse(stdout) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  return {
    requestsPerSecond: summary.requests.total / summary.duration,
    p50: summary.latency.p50,
    p99: summary.latency.p99,
    failures: summary.errors + summary.timeouts + summary.non2xx,
  };
}

type Answer = { body: Buffer; type: string; read?: { text: string; values: unknown[] } };

/**
 * The floor: a bare node:http server answering each path with the bytes and content type Herald sent.
 * With `pool`, it first reads the endpoint's rows with one prepared query: the floor of any answer
 * that must come from the database.
 */
async function startFloor(answers: Map<string, Answer>, pool?: pg.Pool): Promise<{ base: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const answer = answers.get(request.url ?? '');
    if (!answer) {
      response.writeHead(404).end();
      return;
    }
    const send = () => {
      response.writeHead(200, { 'content-type': answer.type, 'content-length': answer.body.length });
      response.end(answer.body);
    };
    if (!pool || !answer.read) return send();
    pool.query({ name: `floor ${request.url}`, ...answer.read }).then(send, () => response.writeHead(500).end());
  });
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { base: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function main(): Promise<void> {
  const { db, database, config, origin: herald, token, auth, user, services, close } = await startBenchHerald('api');
  try {
    const template = await services.templates.create(auth, {
      name: 'Spring sale',
      body: 'Hi {{first_name}}, 20% off this weekend only. Reply STOP to opt out.',
      sender: 'Herald',
    });
    await db.execute(sql`
      INSERT INTO templates (team_id, name, body, sender)
      SELECT ${user.teamId}, 'Template ' || i, 'Hello {{first_name}}, offer number ' || i || ' is waiting for you at the shop.', 'Herald'
        FROM generate_series(2, ${TEMPLATES}) i`);
    await db.execute(sql`ANALYZE templates`);
    const group = await services.contactGroups.create(auth, { name: 'Everyone', headers: ['first_name'] });
    const now = Date.now();
    const campaign = await services.campaigns.create(auth, {
      name: 'Weekend offer',
      sender: 'Herald',
      scheduled_send_date: formatTimestamp(new Date(now + 86_400_000), config.appTimezone),
      expiry_date: formatTimestamp(new Date(now + 2 * 86_400_000), config.appTimezone),
      included_contact_groups: [group.uuid],
      excluded_contact_groups: [],
      template_uuid: template.uuid,
    });
    const { rows: versions } = await db.execute<{ version: string }>(sql`SELECT current_setting('server_version') AS version`);

    const headers = { authorization: `Bearer ${token}` };
    const endpoints = [
      {
        key: 'templates',
        label: 'GET /templates/ (page of 15, 10,000 in the team)',
        path: '/api/2.0/templates/',
        read: { text: 'SELECT * FROM templates WHERE team_id = $1 ORDER BY created_at DESC, id DESC LIMIT 15', values: [user.teamId] },
      },
      {
        key: 'campaign',
        label: 'GET /campaigns/{uuid}',
        path: `/api/2.0/campaigns/${campaign.uuid}`,
        read: { text: 'SELECT * FROM campaigns WHERE team_id = $1 AND uuid = $2', values: [user.teamId, campaign.uuid] },
      },
    ];
    const answers = new Map<string, Answer>();
    for (const endpoint of endpoints) {
      const response = await fetch(herald + endpoint.path, { headers });
      if (response.status !== 200) throw new Error(`${endpoint.path} answered ${response.status}`);
      const body = Buffer.from(await response.arrayBuffer());
      if (endpoint.key === 'templates' && (JSON.parse(body.toString()) as { meta: { total: number } }).meta.total !== TEMPLATES)
        throw new Error('templates: wrong total');
      answers.set(endpoint.path, { body, type: response.headers.get('content-type') ?? 'application/json', read: endpoint.read });
    }
    // Reads no two of which are alike at once: identical concurrent GETs share one read, these cannot.
    const pages = Array.from({ length: DISTINCT_PAGES }, (_, i) => `/api/2.0/templates/?page=${i + 1}`);
    for (const [i, page] of pages.entries()) {
      const response = await fetch(herald + page, { headers });
      if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
      const read = { text: 'SELECT * FROM templates WHERE team_id = $1 ORDER BY created_at DESC, id DESC LIMIT 15 OFFSET $2', values: [user.teamId, i * 15] };
      answers.set(page, { body: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type') ?? 'application/json', read });
    }
    const floor = await startFloor(answers);
    const databaseFloor = await startFloor(answers, database.pool);

    const figures: Figure[] = [];
    try {
      for (const endpoint of endpoints) {
        // Warm both (JIT, connection pools, PostgreSQL's caches), then measure them one after the other.
        await load(herald + endpoint.path, headers, 2);
        await load(floor.base + endpoint.path, headers, 2);
        await load(databaseFloor.base + endpoint.path, headers, 2);
        const served = await load(herald + endpoint.path, headers, SECONDS);
        const bare = await load(floor.base + endpoint.path, headers, SECONDS);
        const withDatabase = await load(databaseFloor.base + endpoint.path, headers, SECONDS);
        if (served.failures + bare.failures + withDatabase.failures > 0)
          throw new Error(`${endpoint.path}: ${served.failures} failures (floors ${bare.failures}, ${withDatabase.failures})`);
        const floorLabel = 'bare node:http answering the same bytes';
        figures.push(
          {
            key: `api.${endpoint.key}.rps`,
            label: `${endpoint.label}, requests/s at ${CONNECTIONS} connections`,
            unit: 'req/s',
            value: served.requestsPerSecond,
            floor: bare.requestsPerSecond,
            floorLabel,
            target: { on: 'ratio', op: '>=', value: 0.25 },
          },
          {
            key: `api.${endpoint.key}.rps_database_floor`,
            label: `${endpoint.label}, requests/s against a floor that reads its rows`,
            unit: 'req/s',
            value: served.requestsPerSecond,
            floor: withDatabase.requestsPerSecond,
            floorLabel: 'bare node:http reading the rows with one prepared pg query, then answering the same bytes',
          },
          {
            key: `api.${endpoint.key}.database_floor_rps`,
            label: `${endpoint.label}: for reference, the floor that reads its rows, against the bare floor`,
            unit: 'req/s',
            value: withDatabase.requestsPerSecond,
            floor: bare.requestsPerSecond,
            floorLabel,
          },
          { key: `api.${endpoint.key}.p50`, label: `${endpoint.label}, latency p50`, unit: 'ms', value: served.p50, floor: bare.p50, floorLabel, digits: 1 },
          {
            key: `api.${endpoint.key}.p99`,
            label: `${endpoint.label}, latency p99`,
            unit: 'ms',
            value: served.p99,
            floor: bare.p99,
            floorLabel,
            target: { on: 'value', op: '<=', value: 50 },
            digits: 1,
          },
        );
      }

      await load(herald, headers, 2, pages);
      await load(databaseFloor.base, headers, 2, pages);
      const served = await load(herald, headers, SECONDS, pages);
      const withDatabase = await load(databaseFloor.base, headers, SECONDS, pages);
      if (served.failures + withDatabase.failures > 0) throw new Error(`distinct pages: ${served.failures} failures (floor ${withDatabase.failures})`);
      const label = `GET /templates/?page=1…${DISTINCT_PAGES} in turn (no two requests alike at once)`;
      const floorLabel = 'bare node:http reading the page with one prepared pg query, then answering the same bytes';
      figures.push(
        {
          key: 'api.templates_pages.rps',
          label: `${label}, requests/s at ${CONNECTIONS} connections`,
          unit: 'req/s',
          value: served.requestsPerSecond,
          floor: withDatabase.requestsPerSecond,
          floorLabel,
        },
        { key: 'api.templates_pages.p99', label: `${label}, latency p99`, unit: 'ms', value: served.p99, floor: withDatabase.p99, floorLabel, digits: 1 },
      );
    } finally {
      await floor.close();
      await databaseFloor.close();
    }
    emitResult({ bench: 'api', figures, meta: { postgres: `PostgreSQL ${versions[0]!.version}` } });
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
