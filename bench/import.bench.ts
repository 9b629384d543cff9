/**
 * CSV import benchmark: 1,000,000 rows (unique numbers, two custom fields) POSTed over HTTP to a
 * service on a fresh embedded PostgreSQL. Run: `npx tsx bench/import.bench.ts [rows]`.
 * Prints rows/s, seconds and the process's peak RSS (the CSV is generated on the fly, never held);
 * beside it, in the same run, the floor: PostgreSQL's COPY of the same file.
 */
import http from 'node:http';
import path from 'node:path';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import { startBenchHerald } from './lib/herald';
import { emitResult } from './lib/result';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const LINES_PER_CHUNK = 2_000;
const CITIES = ['Leeds', 'York', 'Hull', 'Bath', 'Ely'];

function* csvChunks(): Generator<string> {
  yield 'phone_number,first_name,city\n';
  for (let start = 0; start < ROWS; start += LINES_PER_CHUNK) {
    let chunk = '';
    for (let i = start; i < Math.min(ROWS, start + LINES_PER_CHUNK); i++)
      chunk += `447700${String(i).padStart(6, '0')},Name ${i},${CITIES[i % CITIES.length]}\n`;
    yield chunk;
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

async function main(): Promise<void> {
  const { app, database, dataDir, port, token, close } = await startBenchHerald('import');
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  try {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const group = (await app.inject({ method: 'POST', url: '/api/2.0/contact-groups/', headers, payload: { name: 'Bench' } })).json().data.uuid;

    let bytes = 0;
    for (const chunk of csvChunks()) bytes += Buffer.byteLength(chunk);
    console.log(`importing ${ROWS.toLocaleString('en-GB')} rows (${mib(bytes)}) over HTTP…`);
    const progress = setInterval(async () => {
      const latest = (await app.inject({ method: 'GET', url: `/api/2.0/contact-groups/${group}/imports?per_page=1`, headers })).json().data[0];
      if (latest) console.log(`  ${latest.status} ${latest.percent ?? '?'}% rows ${latest.rows_total.toLocaleString('en-GB')}`);
    }, 5_000);
    const started = performance.now();
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: `/api/2.0/contact-groups/${group}/imports?file_name=bench.csv`,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv', 'content-length': bytes },
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8').on('data', (part: string) => (body += part));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on('error', reject);
      Readable.from(csvChunks()).pipe(request);
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(progress);
    if (answer.status !== 201) throw new Error(`import answered ${answer.status}: ${answer.body}`);
    const result = JSON.parse(answer.body).data;
    const shown = (await app.inject({ method: 'GET', url: `/api/2.0/contact-groups/${group}`, headers })).json().data;
    console.log(
      `status ${result.status}: ${result.rows_valid} valid, ${result.rows_invalid} invalid, ${result.contacts_added} added; group has ${shown.number_of_contacts}`,
    );
    if (shown.number_of_contacts !== ROWS) throw new Error(`the group has ${shown.number_of_contacts} contacts, not ${ROWS}`);

    // The floor: PostgreSQL's own COPY of the same file into a table keyed by phone number.
    const file = path.join(dataDir, 'floor.csv');
    await pipeline(Readable.from(csvChunks()), createWriteStream(file, { mode: 0o644 }));
    await database.db.execute(sql`CREATE TABLE floor_contacts (phone_number text PRIMARY KEY, first_name text, city text)`);
    const floorStarted = performance.now();
    await database.db.execute(sql.raw(`COPY floor_contacts FROM '${file}' WITH (FORMAT csv, HEADER true)`));
    const floorSeconds = (performance.now() - floorStarted) / 1000;
    const { rows: versions } = await database.db.execute<{ version: string }>(sql`SELECT current_setting('server_version') AS version`);
    const floorLabel = "PostgreSQL's COPY of the same file into a table keyed by phone number";
    emitResult({
      bench: 'import',
      meta: { postgres: `PostgreSQL ${versions[0]!.version}` },
      figures: [
        {
          key: 'import.rate',
          label: `Rows imported a second (${ROWS.toLocaleString('en-GB')}-row CSV over HTTP)`,
          unit: 'rows/s',
          value: ROWS / seconds,
          floor: ROWS / floorSeconds,
          floorLabel,
        },
        {
          key: 'import.seconds',
          label: 'Time for the whole file, upload to the last row stored',
          unit: 's',
          value: seconds,
          floor: floorSeconds,
          floorLabel,
          target: { on: 'value', op: '<=', value: 60 },
          digits: 1,
        },
        { key: 'import.rss', label: 'Peak RSS of the process', unit: 'MiB', value: peakRss / 1024 / 1024 },
      ],
    });
  } finally {
    clearInterval(sampler);
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
