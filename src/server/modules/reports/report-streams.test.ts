/**
 * Whole reports streamed over HTTP (issue 23, point 3, second half): `GET /reporting/{uuid}/{type}.csv`
 * and `.ndjson` answer every row of a report in one response with the API token, read from the
 * database as the client takes it. Over a real socket, as a client downloads a report.
 *
 * Two campaigns written straight into the database as the engine leaves them
 * (testing/written-campaign.ts), so that a report spans several of the reads a stream is made of
 * (2,000 rows each): one of 5,000 messages whose custom fields hold quotes, commas, a line break and
 * formulas, and one of 40,000 larger rows (about 20 MB of CSV: more than the loopback socket's
 * buffers hold, so a client that stops reading holds the server back). The rows of every outcome the
 * engine writes (unsent reasons, clicks, failure reasons) are compared with their pages, streamed,
 * in report-filters.test.ts.
 *
 * Seen red (each protection removed once, the test run, then put back):
 * - team scoping: with `c.team_id = …` left out of the repository's `campaign` (a campaign found by
 *   its uuid in any team), "is another team's 404" failed: the other team's token got 200 and the
 *   report (delivery.csv, the first it asked for).
 * - back-pressure: with the reads no longer held back (READ_AHEAD 1,000 in report-reading.ts), both
 *   tests of a client that stops reading failed: all 140 reads of the seven downloads ran.
 * - no connection held: with each download keeping a pool connection from its first read to the
 *   end (as a cursor would; a test-only change to the repository's `messages`), "holds no database
 *   connection" failed: 5 connections checked out while the downloads waited.
 * - errors before the first byte: with the first rows no longer read before the answer starts
 *   (`reportStream` in report-reading.ts), "is a 500 … when the first read fails" failed: 200.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPORT_COLUMNS, REPORT_TYPES, type ReportType } from '../../../shared/contract';
import { csvCellsOf, csvRecordsOf, ndjsonRowsOf, type ReportPageRow } from '../../testing/report-text';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';
import { writtenCampaign } from '../../testing/written-campaign';

const API = '/api/2.0';
const clock = createTestClock('2026-06-01T09:00:00Z');
const MID = 5_000;
const BIG = 40_000;
/** The reads (of 2,000 rows) a whole delivery report of BIG messages is made of. */
const BIG_READS = BIG / 2_000;
const FIRST_NAMES = ['Ada', '=SUM(A1)', 'Zoë, "the" one\nnext line', '+44 7700 900123', '@home', 'Bo'];

let t: TestApp;
let owner: TestUser;
let stranger: TestUser;
let base: string;
/** Campaign uuids: `mid` and `big` sent (written), `later` not started. */
const c = { mid: '', big: '', later: '' };

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, { clock });
  owner = await t.user();
  stranger = await t.user();
  const post = async (url: string, body: unknown) => {
    const response = await t.request('POST', `${API}${url}`, { token: owner.token, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.uuid as string;
  };
  const template = await post('/templates/', { name: 'Note', body: 'Hello {{first_name}}, this is Herald.', sender: 'Herald' });
  const group = await post('/contact-groups/', { name: 'Everyone', headers: ['first_name', 'city'] });
  const teamId = (await t.services.teamsRepository.findByUuid(owner.teamUuid))!.id;
  const written = { teamId, templateUuid: template, groupUuid: group, now: clock.now() };
  c.mid = (await writtenCampaign(t.database.db, { ...written, name: 'Streamed', messages: MID, firstNames: FIRST_NAMES })).uuid;
  c.big = (await writtenCampaign(t.database.db, { ...written, name: 'Été — Распродажа 2026', messages: BIG, bodyPadding: 400 })).uuid;
  c.later = await post('/campaigns/', {
    name: 'Later',
    sender: 'Herald',
    scheduled_send_date: '2026-07-01 10:00:00',
    expiry_date: '2026-07-01 12:00:00',
    included_contact_groups: [group],
    template_uuid: template,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${API}`;
}, 60_000);
afterEach(() => vi.restoreAllMocks());
afterAll(() => t.close());

const get = (path: string, token = owner.token) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
const errorShape = (code: number) => ({ error: { code, http_code: code, message: expect.any(String), request_id: expect.any(String) } });

/** Every row of a report as its pages answer them, page after page (100 a page), under `query`'s filters. */
async function pagedRows(uuid: string, type: ReportType, query = ''): Promise<ReportPageRow[]> {
  const rows: ReportPageRow[] = [];
  for (let page = 1; ; page++) {
    const response = await t.request('GET', `${API}/reporting/${uuid}/${type}?per_page=100&page=${page}${query && `&${query}`}`, { token: owner.token });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { data: ReportPageRow[]; meta: { last_page: number } };
    rows.push(...body.data);
    if (page >= body.meta.last_page) return rows;
  }
}

describe('GET /reporting/{uuid}/{type}.csv', () => {
  it('answers the whole report as a CSV download, streamed, that parses back to every row of its pages', async () => {
    for (const type of ['delivery', 'alt_delivery', 'recipient'] as const) {
      const response = await get(`/reporting/${c.mid}/${type}.csv`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="Streamed-${type}-report.csv"`);
      // Streamed: no length, the body comes in chunks.
      expect(response.headers.get('content-length')).toBeNull();
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const { header, records } = csvRecordsOf(bytes.toString('utf8'));
      expect(header).toEqual(REPORT_COLUMNS[type]);
      const rows = await pagedRows(c.mid, type);
      expect(rows).toHaveLength(MID);
      expect(records).toEqual(rows.map((row) => csvCellsOf(row, REPORT_COLUMNS[type])));
      if (type === 'alt_delivery') {
        // As the e-mailed CSV writes them: a formula neutralised, a cell with a quote, comma or line break quoted.
        expect(bytes.toString('utf8')).toContain(`,447700000001,"first_name,city","'=SUM(A1),Leeds",`);
        expect(bytes.toString('utf8')).toContain(`,447700000002,"first_name,city","Zoë, ""the"" one\nnext line,Leeds",`);
      }
    }
  });

  it('has one row for the send, and only the header before a campaign starts', async () => {
    const sent = await get(`/reporting/${c.mid}/sent.csv`);
    expect(csvRecordsOf(await sent.text()).records).toEqual((await pagedRows(c.mid, 'sent')).map((row) => csvCellsOf(row, REPORT_COLUMNS.sent)));
    for (const type of REPORT_TYPES) {
      const later = await get(`/reporting/${c.later}/${type}.csv`);
      expect(later.status).toBe(200);
      expect(Buffer.from(await later.arrayBuffer()).toString('utf8')).toBe(`\uFEFF${REPORT_COLUMNS[type].join(',')}\r\n`);
    }
  });

  it('names the file in ASCII whatever the campaign is called', async () => {
    const response = await get(`/reporting/${c.big}/unsent.csv`);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="Ete-2026-unsent-report.csv"');
    await response.text();
  });
});

describe('GET /reporting/{uuid}/{type}.ndjson', () => {
  it('answers every row of the pages, in their order, one JSON object a line with the fields beyond the CSV’s columns', async () => {
    for (const type of REPORT_TYPES) {
      const response = await get(`/reporting/${c.mid}/${type}.ndjson`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/x-ndjson');
      expect(response.headers.get('content-disposition')).toBeNull();
      const rows = ndjsonRowsOf(await response.text());
      // Streamed; a report without rows is an empty body, said by its length.
      expect(response.headers.get('content-length')).toBe(rows.length === 0 ? '0' : null);
      expect(rows, type).toEqual(await pagedRows(c.mid, type));
      expect(rows.length, type).toBe({ delivery: MID, alt_delivery: MID, recipient: MID, sent: 1, unsent: 0, clicks: 0 }[type]);
    }
    const [first] = ndjsonRowsOf(await (await get(`/reporting/${c.mid}/delivery.ndjson`)).text());
    expect(Object.keys(first!)).toEqual([...REPORT_COLUMNS.delivery, 'failure_reason', 'sent_at', 'delivered_at']);
    // Before a campaign starts: nothing at all.
    const later = await get(`/reporting/${c.later}/delivery.ndjson`);
    expect(later.status).toBe(200);
    expect(await later.text()).toBe('');
  });
});

describe('filters', () => {
  it('keep the rows the filtered pages list, in their order, in both formats', async () => {
    for (const [type, query] of [
      ['delivery', 'status=Failed'],
      ['alt_delivery', 'status=Success&search=0012'],
      ['recipient', 'search=%2B44%207700%20004'],
      ['delivery', 'search=999999'],
    ] as const) {
      const rows = await pagedRows(c.mid, type, query);
      expect(rows.length, query).toBeLessThan(MID);
      const ndjson = ndjsonRowsOf(await (await get(`/reporting/${c.mid}/${type}.ndjson?${query}`)).text());
      expect(ndjson, query).toEqual(rows);
      const { records } = csvRecordsOf(await (await get(`/reporting/${c.mid}/${type}.csv?${query}`)).text());
      expect(records, query).toEqual(rows.map((row) => csvCellsOf(row, REPORT_COLUMNS[type])));
    }
    // One in twenty failed: rows from every read of the report.
    expect(await pagedRows(c.mid, 'delivery', 'status=Failed')).toHaveLength(MID / 20);
  });

  it('refuses a value the report does not have with 422 before the first byte, and ignores one it does not take', async () => {
    for (const format of ['csv', 'ndjson']) {
      const refused = await get(`/reporting/${c.mid}/delivery.${format}?status=Lost`);
      expect(refused.status).toBe(422);
      expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = await refused.json();
      expect(body).toMatchObject(errorShape(422));
      expect(Object.keys(body.error.errors)).toEqual(['status']);
      expect((await get(`/reporting/${c.mid}/delivery.${format}?search=abc`)).status).toBe(422);
    }
    // `reason` is the unsent report's, and paging is not a stream's: the whole delivery report.
    expect(ndjsonRowsOf(await (await get(`/reporting/${c.mid}/delivery.ndjson?reason=stopped&per_page=2`)).text())).toHaveLength(MID);
  });
});

describe('errors', () => {
  it('are answered before the first byte as JSON in the house shape', async () => {
    for (const format of ['csv', 'ndjson']) {
      for (const [path, code] of [
        [`/reporting/${randomUUID()}/delivery.${format}`, 404],
        [`/reporting/not-a-uuid/delivery.${format}`, 404],
        [`/reporting/${c.mid}/bounces.${format}`, 404],
      ] as const) {
        const response = await get(path);
        expect(response.status, path).toBe(code);
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(await response.json()).toEqual(errorShape(code));
      }
      const anonymous = await fetch(`${base}/reporting/${c.mid}/delivery.${format}`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toEqual(errorShape(401));
    }
    // The paged report answers an unknown type the same way.
    expect((await get(`/reporting/${c.mid}/bounces`)).status).toBe(404);
  });

  it("is another team's 404, and shows it none of the rows", async () => {
    for (const type of REPORT_TYPES) {
      for (const format of ['csv', 'ndjson']) {
        const response = await get(`/reporting/${c.mid}/${type}.${format}`, stranger.token);
        expect(response.status, `${type}.${format}`).toBe(404);
        const body = await response.text();
        expect(JSON.parse(body)).toEqual(errorShape(404));
        expect(body).not.toContain('4477');
      }
    }
  });

  it('is a 500 in the house shape when the first read fails', async () => {
    vi.spyOn(t.services.reportsRepository, 'messages').mockRejectedValueOnce(new Error('the database went away'));
    const response = await get(`/reporting/${c.mid}/delivery.csv`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 500, http_code: 500, message: 'Server Error', request_id: expect.any(String) } });
  });

  it('cuts the connection when a read fails once the file has started: the rows so far, never an error after them', async () => {
    const repository = t.services.reportsRepository;
    const messages = repository.messages.bind(repository);
    // For each format: the first read, then the next one fails.
    vi.spyOn(repository, 'messages')
      .mockImplementationOnce(messages)
      .mockRejectedValueOnce(new Error('the database went away'))
      .mockImplementationOnce(messages)
      .mockRejectedValueOnce(new Error('the database went away'));
    for (const format of ['csv', 'ndjson']) {
      const response = await get(`/reporting/${c.mid}/delivery.${format}`);
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const failure = await (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return undefined;
          text += decoder.decode(value, { stream: true });
        }
      })().catch((error: unknown) => error);
      // The client sees a broken transfer, not a file that looks whole.
      expect(failure, format).toBeInstanceOf(Error);
      expect(text).not.toContain('"error"');
      expect(text).not.toContain('Server Error');
      // The first read's 2,000 rows came whole, and nothing of the second's.
      expect(format === 'csv' ? csvRecordsOf(text).records : ndjsonRowsOf(text)).toHaveLength(2_000);
    }
  });
});

/** A download over its own socket that takes its first bytes, then stops reading (the socket stays open). */
function stalledDownload(path: string): Promise<{ request: http.ClientRequest; response: http.IncomingMessage; first: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${path}`, { headers: { authorization: `Bearer ${owner.token}` } }, (response) => {
      response.once('data', (first: Buffer) => {
        response.pause();
        resolve({ request, response, first });
      });
    });
    request.on('error', reject);
  });
}

/** Waits until `count` stays the same for half a second: the server has done what it can meanwhile. */
async function settled(count: () => number): Promise<number> {
  for (let last = -1; ;) {
    const now = count();
    if (now === last) return now;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Line feeds in a chunk of a download. */
const lineFeeds = (chunk: Buffer) => {
  let count = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) count++;
  return count;
};

/** Connections the app's pool has handed out and not had back. */
const checkedOut = () => t.database.pool.totalCount - t.database.pool.idleCount;

/**
 * Two more stalled downloads of the big campaign's delivery report than the app's pool has
 * connections, once the server has done all it can for them; the reads of report rows counted.
 */
async function stalledDownloads(format: 'csv' | 'ndjson') {
  const reads = vi.spyOn(t.services.reportsRepository, 'messages');
  const max = t.database.pool.options.max!;
  const downloads = await Promise.all(Array.from({ length: max + 2 }, () => stalledDownload(`/reporting/${c.big}/delivery.${format}`)));
  // Held back: no download got far, the reads wait for their clients; no connection is held meanwhile.
  const stalledReads = await settled(() => reads.mock.calls.length);
  expect(stalledReads).toBeLessThan(downloads.length * BIG_READS);
  expect(checkedOut()).toBe(0);
  return { reads, max, downloads, stalledReads };
}

describe('a client that stops reading, or goes away', () => {
  it('holds no database connection while it waits: more stalled downloads than the pool has connections, the API still answers, and each then reads on to its end', async () => {
    const { reads, downloads } = await stalledDownloads('csv');
    // The pool serves everything else meanwhile.
    const page = await t.request('GET', `${API}/reporting/${c.big}/delivery?page=2000`, { token: owner.token });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data).toHaveLength(15);
    // Each download reads on: every row, once.
    const lineCounts = await Promise.all(
      downloads.map(
        ({ response, first }) =>
          new Promise<number>((resolve, reject) => {
            let lines = lineFeeds(first);
            response.on('data', (chunk: Buffer) => (lines += lineFeeds(chunk)));
            response.on('end', () => resolve(lines));
            response.on('error', reject);
            response.resume();
          }),
      ),
    );
    expect(lineCounts).toEqual(Array(downloads.length).fill(BIG + 1));
    // Each read once: the downloads' and the page's.
    expect(reads.mock.calls.length).toBe(downloads.length * BIG_READS + 1);
    expect(checkedOut()).toBe(0);
  });

  it('lets go when the client goes away mid-report: the reads stop, no connection is left held, and every connection of the pool serves on', async () => {
    const { reads, max, downloads, stalledReads } = await stalledDownloads('ndjson');
    for (const { request } of downloads) request.destroy();
    // At most the read each had under way when its client went.
    expect(await settled(() => reads.mock.calls.length)).toBeLessThanOrEqual(stalledReads + downloads.length);
    expect(checkedOut()).toBe(0);
    const busy = await Promise.all(Array.from({ length: max }, () => t.database.pool.query('SELECT pg_sleep(0.05), 1 AS ok')));
    expect(busy.map((result) => result.rows[0].ok)).toEqual(Array(max).fill(1));
    const page = await t.request('GET', `${API}/reporting/${c.big}/delivery?page=3`, { token: owner.token });
    expect(page.statusCode, page.body).toBe(200);
  });
});
