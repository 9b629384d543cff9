/**
 * Import benchmark: a CSV of 1,000,000 rows (unique numbers, two custom fields) POSTed over HTTP to
 * a service on a fresh embedded PostgreSQL, then an XLSX workbook of 100,000 rows of the same
 * columns. Run: `npm run bench:import [rows]`.
 * Prints rows/s, seconds and the process's peak RSS (the CSV is generated on the fly, never held);
 * beside each, in the same run, a floor: PostgreSQL's COPY of the same CSV, and exceljs reading the
 * same workbook (no Herald).
 */
import http from 'node:http';
import path from 'node:path';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { XLSX_CONTENT_TYPE } from '../src/shared/contract/imports';
import { startBenchHerald } from './lib/herald';
import { emitResult } from './lib/result';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const SHEET_ROWS = Math.min(ROWS, 100_000);
const LINES_PER_CHUNK = 2_000;
const CITIES = ['Leeds', 'York', 'Hull', 'Bath', 'Ely'];

function* csvChunks(): Generator<string> {
  yield 'phone_number,first_name,city\n';
  for (let start = 0; start < ROWS; start += LINES_PER_CHUNK) {
    let chunk = '';
    for (let i = start; i < Math.min(ROWS, start + LINES_PER_CHUNK); i++) chunk += `4477${String(i).padStart(8, '0')},Name ${i},${CITIES[i % CITIES.length]}\n`;
    yield chunk;
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** The workbook, written row by row to a file (exceljs's streaming writer: flat memory). */
async function writeWorkbook(file: string): Promise<void> {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: false });
  const sheet = book.addWorksheet('Contacts');
  sheet.addRow(['Mobile', 'First Name', 'City']).commit();
  for (let i = 0; i < SHEET_ROWS; i++) sheet.addRow([447800000000 + i, `Name ${i}`, CITIES[i % CITIES.length]]).commit();
  sheet.commit();
  await book.commit();
}

/** POSTs a body to the import endpoint of `group` over HTTP; the answer's status and text. */
function postImport(port: number, token: string, group: string, type: string, bytes: number, body: Readable) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/2.0/contact-groups/${group}/imports?file_name=bench`,
        headers: { authorization: `Bearer ${token}`, 'content-type': type, 'content-length': bytes },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (part: string) => (text += part));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    body.pipe(request);
  });
}

async function main(): Promise<void> {
  const { app, database, dataDir, port, token, close } = await startBenchHerald('import');
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  try {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const newGroup = async (name: string) =>
      (await app.inject({ method: 'POST', url: '/api/2.0/contact-groups/', headers, payload: { name } })).json().data.uuid as string;
    const group = await newGroup('Bench');

    let bytes = 0;
    for (const chunk of csvChunks()) bytes += Buffer.byteLength(chunk);
    console.log(`importing ${ROWS.toLocaleString('en-GB')} rows (${mib(bytes)}) over HTTP…`);
    const progress = setInterval(async () => {
      const latest = (await app.inject({ method: 'GET', url: `/api/2.0/contact-groups/${group}/imports?per_page=1`, headers })).json().data[0];
      if (latest) console.log(`  ${latest.status} ${latest.percent ?? '?'}% rows ${latest.rows_total.toLocaleString('en-GB')}`);
    }, 5_000);
    const started = performance.now();
    const answer = await postImport(port, token, group, 'text/csv', bytes, Readable.from(csvChunks()));
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
    // The workbook: written before it is timed, imported into a group of its own, then read by exceljs alone.
    const workbook = path.join(dataDir, 'bench.xlsx');
    await writeWorkbook(workbook);
    const workbookBytes = (await stat(workbook)).size;
    console.log(`importing a workbook of ${SHEET_ROWS.toLocaleString('en-GB')} rows (${mib(workbookBytes)}) over HTTP…`);
    const sheetGroup = await newGroup('Bench workbook');
    const sheetStarted = performance.now();
    const sheetAnswer = await postImport(port, token, sheetGroup, XLSX_CONTENT_TYPE, workbookBytes, createReadStream(workbook));
    const sheetSeconds = (performance.now() - sheetStarted) / 1000;
    if (sheetAnswer.status !== 201 || JSON.parse(sheetAnswer.body).data.rows_valid !== SHEET_ROWS)
      throw new Error(`the workbook import answered ${sheetAnswer.status}: ${sheetAnswer.body}`);
    const readStarted = performance.now();
    let read = 0;
    for await (const worksheet of new ExcelJS.stream.xlsx.WorkbookReader(createReadStream(workbook), { sharedStrings: 'cache', styles: 'cache' }))
      for await (const row of worksheet) read += row.number > 1 ? 1 : 0;
    const readSeconds = (performance.now() - readStarted) / 1000;
    if (read !== SHEET_ROWS) throw new Error(`exceljs read ${read} rows, not ${SHEET_ROWS}`);
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
          target: { on: 'ratio', op: '>=', value: 0.15 },
        },
        {
          key: 'import.seconds',
          label: 'Time for the whole file, upload to the last row stored',
          unit: 's',
          value: seconds,
          floor: floorSeconds,
          floorLabel,
          target: { on: 'value', op: '<=', value: 20 },
          digits: 1,
        },
        {
          key: 'import.xlsx.rate',
          label: `Rows imported a second (${SHEET_ROWS.toLocaleString('en-GB')}-row XLSX workbook over HTTP)`,
          unit: 'rows/s',
          value: SHEET_ROWS / sheetSeconds,
          floor: SHEET_ROWS / readSeconds,
          floorLabel: "exceljs's streaming reader reading the same workbook's rows (no Herald)",
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
