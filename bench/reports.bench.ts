/**
 * Reports benchmark (issue #7): a campaign of 1,000,000 messages (as the engine leaves them: numbered,
 * submitted, most delivered, with custom fields and a rendered body) on a fresh embedded PostgreSQL.
 * Measures over real HTTP the latency of report page 1 and page 60,000 (15 rows a page: the last rows
 * of the campaign), median and p99, and the CSV export (rows/s, growth of the process's RSS); beside
 * each, in the same run, its floor: the bare query for the same rows, PostgreSQL's own COPY to CSV.
 * Then the whole report streamed over HTTP (`GET /reporting/{uuid}/{type}.csv`, `.ndjson`), read to
 * its end by a client in a process of its own: rows/s beside the export's of the same run, and the
 * growth of this (the server's) process's RSS.
 * Run: `npx tsx bench/reports.bench.ts [messages]`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { writtenCampaign } from '../src/server/testing/written-campaign';
import { startBenchHerald } from './lib/herald';
import { emitResult, percentile, type Figure } from './lib/result';

const MESSAGES = Number(process.argv[2] ?? 1_000_000);
const SAMPLES = 200;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** Runs `work` with this process's RSS sampled every 20 ms: its result, how long it took, and the RSS before it and at its peak. */
async function sampled<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; rssBefore: number; peakRss: number }> {
  global.gc?.();
  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
  const started = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - started) / 1000, rssBefore, peakRss };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * A client in its own process (not on the server's event loop): GETs the URL and reads the body to
 * its end; its bytes, line feeds, and seconds from the request to the last byte.
 */
const CLIENT = `
const [url, token] = process.argv.slice(1);
const started = performance.now();
require('node:http').get(url, { headers: { authorization: 'Bearer ' + token } }, (response) => {
  if (response.statusCode !== 200) { console.error('answered ' + response.statusCode); process.exit(1); }
  let bytes = 0, lines = 0;
  response.on('data', (chunk) => { bytes += chunk.length; for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++; });
  response.on('end', () => process.stdout.write(JSON.stringify({ bytes, lines, seconds: (performance.now() - started) / 1000 })));
  response.on('error', (error) => { console.error(error); process.exit(1); });
}).on('error', (error) => { console.error(error); process.exit(1); });`;

type Downloaded = { bytes: number; lines: number; seconds: number };

function download(url: string, token: string): Promise<Downloaded> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CLIENT, url, token], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Downloaded) : reject(new Error(`${url}: client exited ${code}`))));
  });
}

async function main(): Promise<void> {
  const { db, database, dataDir, origin, token, auth, user, services, close } = await startBenchHerald('reports', { RATE_LIMIT_PER_MINUTE: '1000000' });
  const base = `${origin}/api/2.0`;
  try {
    const template = await services.templates.create(auth, { name: 'Bench', body: 'Hello {{first_name}}, this is Herald.', sender: 'Herald' });
    const group = await services.contactGroups.create(auth, { name: 'Everyone', headers: ['first_name', 'city'] });
    console.log(`writing ${MESSAGES.toLocaleString('en-GB')} messages…`);
    const campaign = await writtenCampaign(db, {
      teamId: user.teamId,
      templateUuid: template.uuid,
      groupUuid: group.uuid,
      messages: MESSAGES,
      now: new Date(),
    });
    await db.execute(sql`VACUUM ANALYZE messages`);

    const timePage = async (page: number) => {
      const started = performance.now();
      const response = await fetch(`${base}/reporting/${campaign.uuid}/delivery?page=${page}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as { data: unknown[] };
      if (response.status !== 200 || body.data.length === 0) throw new Error(`page ${page}: ${response.status}`);
      return performance.now() - started;
    };
    // The floor of a page: the same 15 rows read by one bare indexed query through pg, no HTTP, no JSON.
    const floorPage = async (page: number) => {
      const started = performance.now();
      const first = (page - 1) * 15 + 1;
      const { rows } = await database.pool.query(
        'SELECT sequence, uuid, phone_number, status, reason, body, submitted_at, finished_at FROM messages WHERE campaign_id = $1 AND sequence BETWEEN $2 AND $3 ORDER BY sequence',
        [campaign.id, first, first + 14],
      );
      if (rows.length === 0) throw new Error(`floor page ${page}: no rows`);
      return performance.now() - started;
    };
    const lastPage = Math.ceil(MESSAGES / 15);
    const deep = Math.min(60_000, lastPage);
    for (let i = 0; i < 20; i++) await timePage(i % 2 === 0 ? 1 : deep); // warm-up
    for (let i = 0; i < 20; i++) await floorPage(i % 2 === 0 ? 1 : deep);
    const figures: Figure[] = [];
    const pageFloor = 'one bare indexed query for the same rows through pg (no HTTP, no JSON)';
    for (const [page, name] of [
      [1, 'first'],
      [deep, 'deep'],
    ] as const) {
      const times: number[] = [];
      const floors: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        times.push(await timePage(page));
        floors.push(await floorPage(page));
      }
      times.sort((a, b) => a - b);
      floors.sort((a, b) => a - b);
      const label = `Delivery report page ${page.toLocaleString('en-GB')} of ${lastPage.toLocaleString('en-GB')} over HTTP`;
      figures.push(
        {
          key: `reports.page.${name}.p50`,
          label: `${label}, median`,
          unit: 'ms',
          value: percentile(times, 50),
          floor: percentile(floors, 50),
          floorLabel: pageFloor,
          digits: 1,
        },
        {
          key: `reports.page.${name}.p99`,
          label: `${label}, p99`,
          unit: 'ms',
          value: percentile(times, 99),
          floor: percentile(floors, 99),
          floorLabel: pageFloor,
          target: { on: 'value', op: '<=', value: 20 },
          digits: 1,
        },
      );
    }

    // Filtered pages (issue #21): failures (5 % of the campaign), and a search matching a single number.
    // Served by reading the campaign's messages in order and testing each, and counting them all for
    // the total (reports.repository.ts, filteredMessages): no floor, no target; what a filter costs.
    const timeFiltered = async (query: string) => {
      const started = performance.now();
      const response = await fetch(`${base}/reporting/${campaign.uuid}/delivery?${query}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as { data: unknown[]; meta: { total: number } };
      if (response.status !== 200 || body.data.length === 0) throw new Error(`${query}: ${response.status}`);
      return performance.now() - started;
    };
    for (const [query, name, label] of [
      ['status=Failed', 'failed', 'Delivery report filtered to failures (50,000 of 1,000,000), page 1 over HTTP'],
      [`search=${String(MESSAGES - 7).padStart(8, '0')}`, 'search', 'Delivery report searched for one number, page 1 over HTTP'],
    ] as const) {
      await timeFiltered(query); // warm-up
      const times: number[] = [];
      for (let i = 0; i < 20; i++) times.push(await timeFiltered(query));
      times.sort((a, b) => a - b);
      figures.push({ key: `reports.filtered.${name}.p50`, label: `${label}, median`, unit: 'ms', value: percentile(times, 50), digits: 0 });
    }

    const exportRates: Record<string, number> = {};
    for (const type of ['delivery', 'alt_delivery'] as const) {
      await services.reports.request(auth, campaign.uuid, type);
      const job = await services.reportsRepository.claimJob(new Date(), 600_000);
      if (!job) throw new Error('no job');
      const { result: written, seconds, rssBefore, peakRss } = await sampled(() => services.reports.writeCsv(job));
      exportRates[type] = written.rowCount / seconds;
      const size = written.bytes;
      console.log(
        `${type} CSV: ${written.rowCount.toLocaleString('en-GB')} rows in ${seconds.toFixed(1)} s, ${mib(size)} file, RSS ${mib(rssBefore)} → peak ${mib(peakRss)}`,
      );

      // The floor: PostgreSQL writing the same messages' columns as CSV itself (COPY … TO a file).
      const floorDir = path.join(dataDir, 'floor');
      await fs.mkdir(floorDir, { recursive: true });
      await fs.chmod(floorDir, 0o777); // the database server writes it, as its own user
      const floorFile = path.join(floorDir, `${type}.csv`);
      const floorStarted = performance.now();
      await db.execute(
        sql.raw(`COPY (SELECT m.phone_number, m.status, m.reason, m.body, m.submitted_at, m.finished_at${type === 'alt_delivery' ? ', m.custom_fields' : ''}
                         FROM messages m WHERE m.campaign_id = ${Number(campaign.id)} ORDER BY m.sequence) TO '${floorFile}' WITH (FORMAT csv, HEADER true)`),
      );
      const floorSeconds = (performance.now() - floorStarted) / 1000;
      const floorLabel = "PostgreSQL's COPY of the same messages' columns to a CSV file";
      figures.push(
        {
          key: `reports.export.${type}.rate`,
          label: `${type} CSV export, rows a second`,
          unit: 'rows/s',
          value: exportRates[type],
          floor: written.rowCount / floorSeconds,
          floorLabel,
          target: { on: 'value', op: '>=', value: 100_000 },
        },
        {
          key: `reports.export.${type}.rss`,
          label: `${type} CSV export, growth of the process's RSS`,
          unit: 'MiB',
          value: (peakRss - rssBefore) / 1024 / 1024,
          target: { on: 'value', op: '<=', value: 100 },
        },
      );
    }

    // The whole report streamed over HTTP (issue 23): the same rows as the export, read as the client takes them.
    for (const [type, format] of [
      ['delivery', 'csv'],
      ['alt_delivery', 'csv'],
      ['delivery', 'ndjson'],
    ] as const) {
      const url = `${base}/reporting/${campaign.uuid}/${type}.${format}`;
      const { result: body, rssBefore, peakRss } = await sampled(() => download(url, token));
      const { seconds } = body;
      const rows = format === 'csv' ? body.lines - 1 : body.lines;
      if (rows !== MESSAGES) throw new Error(`${type}.${format}: ${rows} rows streamed`);
      console.log(
        `${type}.${format} streamed: ${rows.toLocaleString('en-GB')} rows in ${seconds.toFixed(1)} s, ${mib(body.bytes)}, RSS ${mib(rssBefore)} → peak ${mib(peakRss)}`,
      );
      const label = `${type} report streamed as ${format.toUpperCase()} over HTTP`;
      figures.push(
        {
          key: `reports.stream.${type}.${format}.rate`,
          label: `${label}, rows a second`,
          unit: 'rows/s',
          value: rows / seconds,
          floor: exportRates[type],
          floorLabel: `the ${type} CSV export in the same run (the report job's writeCsv, into the database)`,
          // The CSV is the export's own text: at its speed at least. NDJSON carries more than twice its bytes (keys on every line, the extensions): no target.
          ...(format === 'csv' ? { target: { on: 'ratio', op: '>=', value: 0.8 } as const } : {}),
        },
        {
          key: `reports.stream.${type}.${format}.rss`,
          label: `${label}, growth of the process's RSS`,
          unit: 'MiB',
          value: (peakRss - rssBefore) / 1024 / 1024,
          target: { on: 'value', op: '<=', value: 100 },
        },
      );
    }
    const { rows: versions } = await db.execute<{ version: string }>(sql`SELECT current_setting('server_version') AS version`);
    emitResult({ bench: 'reports', figures, meta: { postgres: `PostgreSQL ${versions[0]!.version}` } });
  } finally {
    await close();
  }
}

await main();
