/**
 * The six reports as JSON and by e-mail, against a campaign the real engine sent.
 *
 * Issue 32: with the job's filters left out of the CSV the worker writes (`rowChunks` without them),
 * the filtered e-mail test went red (5 rows in the file, not the 2 on screen).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/engine';
import { createEngineStore } from '../../engine/store/postgres-store';
import { createMailer } from '../../gateways/mail/mailer';
import type { OutgoingSms, Receipt, SmsGateway, SubmitResult } from '../../gateways/sms/sms-gateway';
import { startSmtpSink, type SmtpSink } from '../../testing/smtp-sink';
import { createTestApp, createTestClock, TEST_PUBLIC_URL, type TestApp, type TestUser } from '../../testing/test-app';
import { createReportWorker } from './report-worker';

// Europe/London in June: UTC+1, so 09:00Z reads 10:00:00 in every report.
const clock = createTestClock('2026-06-01T08:00:00Z');
let t: TestApp;
let owner: TestUser;
let sink: SmtpSink;
let dataDir: string;
let sent: string;
let expired: string;
let customersGroup: string;

/**
 * A gateway with a script, as a carrier behaves: …305 is refused at submission, …302's receipt says
 * it failed, …303 never gets a receipt, the rest are delivered.
 */
function scriptedGateway(): SmsGateway & { sent: OutgoingSms[] } {
  let receiptListener: (receipts: Receipt[]) => void = () => {};
  const sentMessages: OutgoingSms[] = [];
  return {
    sent: sentMessages,
    async submit(batch): Promise<SubmitResult[]> {
      return batch.map((sms) => {
        if (sms.to.endsWith('305')) return { clientRef: sms.clientRef, rejected: 'ESME_RINVDSTADR' };
        sentMessages.push(sms);
        const gatewayId = `gw-${sms.to}`;
        if (!sms.to.endsWith('303')) {
          const failed = sms.to.endsWith('302');
          setTimeout(
            () => receiptListener([{ gatewayId, status: failed ? 'failed' : 'delivered', reason: failed ? 'Undeliverable' : null, at: clock.now() }]),
            0,
          );
        }
        return { clientRef: sms.clientRef, gatewayId };
      });
    },
    onReceipts: (listener) => void (receiptListener = listener),
    onInbound: () => {},
    close: async () => {},
  };
}

const api = async (method: 'GET' | 'POST', url: string) => t.request(method, `/api/2.0${url}`, { token: owner.token });
const report = async (uuid: string, type: string, query = '') => (await api('GET', `/reporting/${uuid}/${type}${query}`)).json();

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-reports-'));
  t = await createTestApp({ DATA_DIR: dataDir }, { clock });
  owner = await t.user({ email: 'ada@shop.test' });
  sink = await startSmtpSink();
  const post = async (url: string, body: unknown) => {
    const response = await t.request('POST', `/api/2.0${url}`, { token: owner.token, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  };
  const template = (await post('/templates/', { name: 'Summer sale', body: 'Hi {{first_name}}, 20% off: ::Shop::', sender: 'Acme' })).uuid;
  const domain = (await api('GET', '/vanity-domains/')).json().data[0].uuid;
  await post('/links/', { template_uuid: template, vanity_domain_uuid: domain, name: 'Shop', destination: 'https://shop.example.com/sale' });
  customersGroup = (await post('/contact-groups/', { name: 'Customers', description: 'Bought in the last year', headers: ['first_name', 'city'] })).uuid;
  const added = await t.request('PUT', `/api/2.0/contact-groups/${customersGroup}/add-contacts`, {
    token: owner.token,
    body: {
      contacts: [
        { phone_number: '07700900301', custom_fields: { first_name: 'Ada', city: 'Leeds' } },
        { phone_number: '07700900302', custom_fields: { first_name: 'Bo', city: 'York' } },
        { phone_number: '07700900303', custom_fields: { first_name: '=HYPERLINK("http://evil")', city: 'Hull, East Riding' } },
        { phone_number: '07700900305', custom_fields: { first_name: 'Eve' } },
      ],
    },
  });
  expect(added.statusCode, added.body).toBe(200);
  const plain = (await post('/contact-groups/', { name: 'Walk-ins' })).uuid;
  await t.request('PUT', `/api/2.0/contact-groups/${plain}/add-contacts`, { token: owner.token, body: { contacts: [{ phone_number: '07700900304' }] } });

  const campaign = (name: string, send: string, expiry: string) =>
    post('/campaigns/', {
      name,
      sender: 'Acme',
      scheduled_send_date: send,
      expiry_date: expiry,
      included_contact_groups: [customersGroup, plain],
      template_uuid: template,
    });
  sent = (await campaign('Summer sale', '2026-06-01 10:00:00', '2026-06-01 12:00:00')).uuid;
  expired = (await campaign('Too late', '2026-06-01 10:00:00', '2026-06-01 10:05:00')).uuid;

  // The engine's first look comes after "Too late" expired: it starts and expires in the same tick.
  const gateway = scriptedGateway();
  const engine = createEngine({
    store: createEngineStore(t.database.db),
    gateway,
    clock,
    options: { tickMs: 1000, batchSize: 100, rateLimitPerSecond: 1000, leaseMs: 30_000, lanes: 1 },
    urlBase: (d) => t.services.vanityDomains.urlBase({ domain: d }),
  });
  clock.set('2026-06-01T09:06:00Z');
  // "Summer sale" is due too; it starts and sends in this tick, its receipts come at once.
  await engine.tick();
  await new Promise((resolve) => setTimeout(resolve, 20));
  await engine.flushReceipts();
  // Clicks on Ada's link: a phone, then a chat app's preview.
  const ada = gateway.sent.find((sms) => sms.to === '447700900301')!;
  const code = /\/l\/([0-9A-Za-z]+)$/.exec(ada.body)![1];
  clock.set('2026-06-01T09:30:00Z');
  await t.app.inject({
    method: 'GET',
    url: `/l/${code}`,
    headers: {
      'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    },
  });
  clock.set('2026-06-01T09:31:00Z');
  await t.app.inject({ method: 'GET', url: `/l/${code}`, headers: { 'user-agent': 'WhatsApp/2.23.20.0' } });
  // The expiry: …303 never got a receipt.
  clock.set('2026-06-01T11:00:01Z');
  await engine.tick();
  await engine.stop();
});
afterAll(async () => {
  await sink.close();
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('reports as JSON', () => {
  it('delivery: one row per message with its copy, status and the expiry as ISO 8601 with offset', async () => {
    const page = await report(sent, 'delivery');
    expect(page.meta).toMatchObject({ total: 5, per_page: 15, current_page: 1, from: 1, to: 5, last_page: 1 });
    const rows = page.data as Array<Record<string, string>>;
    // The CSV's columns, then the Herald extensions beside them (report-filters.test.ts).
    expect(rows.map((r) => Object.keys(r))).toEqual(
      Array(5).fill(['SMS_ID', 'Sender', 'Recipient', 'Message_Copy', 'Status', 'Expiry_Date', 'failure_reason', 'sent_at', 'delivered_at']),
    );
    expect(rows.map((r) => [r.Recipient, r.Status])).toEqual([
      ['447700900301', 'Success'],
      ['447700900302', 'Failed'],
      ['447700900303', 'Expired'],
      ['447700900304', 'Success'],
      ['447700900305', 'Failed'],
    ]);
    expect(rows[0]!.Message_Copy).toMatch(/^Hi Ada, 20% off: http:\/\/herald\.test\/l\/[0-9A-Za-z]{7}$/);
    expect(rows[0]!.Sender).toBe('Acme');
    expect(rows[0]!.SMS_ID).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(rows.map((r) => r.Expiry_Date))).toEqual(new Set(['2026-06-01T12:00:00+0100']));
  });

  it('alt_delivery: field names and values aligned in the group’s header order, sent and update times', async () => {
    const rows = (await report(sent, 'alt_delivery')).data as Array<Record<string, string>>;
    expect(Object.keys(rows[0]!)).toEqual(['MessageId', 'Mobile', 'FieldNames', 'FieldValues', 'MessageSent', 'MessageUpdate', 'Status', 'failure_reason']);
    expect(rows[0]).toMatchObject({
      Mobile: '447700900301',
      FieldNames: 'first_name,city',
      FieldValues: 'Ada,Leeds',
      MessageSent: '2026-06-01 10:06:00',
      MessageUpdate: '2026-06-01 10:06:00',
      Status: 'Success',
    });
    expect(rows[2]).toMatchObject({ Mobile: '447700900303', MessageSent: '2026-06-01 10:06:00', MessageUpdate: '2026-06-01 12:00:01', Status: 'Expired' });
    expect(rows[3]).toMatchObject({ Mobile: '447700900304', FieldNames: '', FieldValues: '' });
    expect(rows[4]).toMatchObject({ Mobile: '447700900305', FieldNames: 'first_name', FieldValues: 'Eve', MessageSent: '', Status: 'Failed' });
  });

  it('recipient: the group each came from, its description (null when none) and fields', async () => {
    const rows = (await report(sent, 'recipient')).data;
    expect(rows[0]).toEqual({
      Phone_Number: '447700900301',
      Group_Name: 'Customers',
      Group_Description: 'Bought in the last year',
      Field_Names: 'first_name,city',
      Field_Values: 'Ada,Leeds',
    });
    expect(rows[3]).toEqual({ Phone_Number: '447700900304', Group_Name: 'Walk-ins', Group_Description: null, Field_Names: '', Field_Values: '' });
  });

  it('sent: one row per send, RecipientCount an integer, the template body with its link shorthand unresolved', async () => {
    const page = await report(sent, 'sent');
    expect(page.meta.total).toBe(1);
    expect(page.data).toEqual([
      {
        MessageId: sent,
        Brand: 'Acme',
        SentOn: '2026-06-01 10:06:00',
        RecipientCount: 5,
        TemplateApiId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        TemplateName: 'Summer sale',
        Message: 'Hi {{first_name}}, 20% off: ::Shop::',
      },
    ]);
  });

  it('unsent: the messages a campaign did not send before it expired, with the reason', async () => {
    expect((await report(sent, 'unsent')).meta.total).toBe(0);
    const page = await report(expired, 'unsent');
    expect(page.meta.total).toBe(5);
    expect(page.data[0]).toEqual({
      MessageId: expect.any(String),
      Mobile: '447700900301',
      FieldNames: 'first_name,city',
      FieldValues: 'Ada,Leeds',
      Reason: 'pending',
    });
    expect((await report(expired, 'delivery')).data.map((r: { Status: string; Message_Copy: string }) => [r.Status, r.Message_Copy])).toEqual(
      Array(5).fill(['Expired', '']),
    );
  });

  it('clicks: one row per click with the user agent read, a preview bot marked', async () => {
    const page = await report(sent, 'clicks');
    expect(page.meta.total).toBe(2);
    expect(page.data[0]).toEqual({
      Phone_Number: '447700900301',
      Link_Name: 'Shop',
      Link_Destination: 'https://shop.example.com/sale',
      Clicked_At: '2026-06-01 10:30:00',
      User_Agent: expect.stringContaining('iPhone'),
      Device_Type: 'mobile',
      OS_Version: 'iOS 17.0',
      Browser_Version: 'Mobile Safari 17.0',
    });
    expect(page.data[1]).toMatchObject({ Clicked_At: '2026-06-01 10:31:00', User_Agent: 'WhatsApp/2.23.20.0', Device_Type: 'bot' });
  });

  it('pages by index range in a stable order, with the envelope’s links; past the end is empty', async () => {
    const second = await report(sent, 'delivery', '?page=2&per_page=2');
    expect(second.data.map((r: { Recipient: string }) => r.Recipient)).toEqual(['447700900303', '447700900304']);
    expect(second.meta).toMatchObject({ current_page: 2, from: 3, to: 4, last_page: 3, per_page: 2, total: 5 });
    expect(second.links).toEqual({
      first: `${TEST_PUBLIC_URL}/api/2.0/reporting/${sent}/delivery?page=1&per_page=2`,
      last: `${TEST_PUBLIC_URL}/api/2.0/reporting/${sent}/delivery?page=3&per_page=2`,
      prev: `${TEST_PUBLIC_URL}/api/2.0/reporting/${sent}/delivery?page=1&per_page=2`,
      next: `${TEST_PUBLIC_URL}/api/2.0/reporting/${sent}/delivery?page=3&per_page=2`,
    });
    const past = await report(sent, 'delivery', '?page=9&per_page=2');
    expect(past.data).toEqual([]);
    expect(past.meta).toMatchObject({ total: 5, from: null, to: null });
  });

  it('answers a pending campaign with no rows, and refuses bad input with clear errors', async () => {
    const pending = (
      await t.request('POST', '/api/2.0/campaigns/', {
        token: owner.token,
        body: {
          name: 'Later',
          sender: 'Acme',
          scheduled_send_date: '2026-07-01 10:00:00',
          expiry_date: '2026-07-01 12:00:00',
          included_contact_groups: [customersGroup],
          template_uuid: (await report(sent, 'sent')).data[0].TemplateApiId,
        },
      })
    ).json().data.uuid;
    for (const type of ['clicks', 'delivery', 'alt_delivery', 'recipient', 'sent', 'unsent']) expect((await report(pending, type)).meta.total).toBe(0);
    expect((await api('GET', `/reporting/${sent}/delivery?per_page=101`)).statusCode).toBe(422);
    expect((await api('GET', `/reporting/${sent}/delivery?page=0`)).json().error.errors).toHaveProperty('page');
    expect((await api('GET', `/reporting/${sent}/bounces`)).statusCode).toBe(404);
    expect((await api('GET', `/reporting/not-a-uuid/delivery`)).statusCode).toBe(404);
    const stranger = await t.user();
    const theirs = await t.request('GET', `/api/2.0/reporting/${sent}/delivery`, { token: stranger.token });
    expect(theirs.statusCode).toBe(404);
    expect((await t.request('POST', `/api/2.0/reporting/${sent}/delivery`, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.request('GET', `/api/2.0/reporting/${sent}/delivery`)).statusCode).toBe(401);
  });
});

describe('reports by e-mail', () => {
  const worker = (smtpUrl: string | undefined) =>
    createReportWorker({
      db: t.database.db,
      reports: t.services.reportsRepository,
      service: t.services.reports,
      mailer: createMailer({ smtpUrl, outboxDir: path.join(dataDir, 'outbox'), from: 'Herald <reports@herald.test>', log: () => {}, timeoutMs: 2000 }),
      clock,
      config: t.config,
      log: () => {},
      options: { retryBaseMs: 60_000 },
    });
  const jobs = async () => (await api('GET', '/report-jobs/')).json();
  const download = (url: string) => t.app.inject({ method: 'GET', url: url.slice(TEST_PUBLIC_URL.length) });

  it('202 with no body, then the CSV is written and its signed link e-mailed to the caller; the link downloads it', async () => {
    const accepted = await api('POST', `/reporting/${sent}/alt_delivery`);
    expect(accepted.statusCode).toBe(202);
    expect(accepted.body).toBe('');
    // Location names the job, which the caller follows to its end.
    const location = String(accepted.headers.location);
    expect(location).toMatch(/^http:\/\/herald\.test\/api\/2\.0\/report-jobs\/[0-9a-f-]{36}$/);
    const follow = async () => (await api('GET', location.slice(TEST_PUBLIC_URL.length + '/api/2.0'.length))).json().data;
    expect(await follow()).toMatchObject({ uuid: (await jobs()).data[0].uuid, type: 'alt_delivery', status: 'queued' });
    expect((await jobs()).data[0]).toMatchObject({
      type: 'alt_delivery',
      status: 'queued',
      email: 'ada@shop.test',
      campaign_name: 'Summer sale',
      download_url: null,
      link_expires_at: '',
    });

    await worker(sink.url).runDue();
    const mail = await sink.waitForMessage((m) => m.to.includes('ada@shop.test'));
    expect(mail.subject).toBe('Your alternative delivery report for “Summer sale” is ready');
    const link = /(http:\/\/herald\.test\/api\/2\.0\/report-downloads\/\S+)/.exec(mail.text)![1]!;
    expect(mail.text).toContain('2026-06-08 12:00:01');

    const job = (await jobs()).data[0];
    expect(job).toMatchObject({ status: 'sent', row_count: 5, error: null, download_url: link, link_expires_at: '2026-06-08 12:00:01' });
    expect(await follow()).toEqual(job);
    // Another user of the team does not follow someone else's report.
    const colleague = await t.user();
    expect((await t.request('GET', location.slice(TEST_PUBLIC_URL.length), { token: colleague.token })).statusCode).toBe(404);

    const file = await download(link);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="Summer-sale-alt_delivery-report.csv"');
    const lines = file.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('MessageId,Mobile,FieldNames,FieldValues,MessageSent,MessageUpdate,Status');
    expect(lines).toHaveLength(7); // header, five rows, and the empty string after the last CRLF
    expect(lines[1]).toMatch(/^[0-9a-f-]{36},447700900301,"first_name,city","Ada,Leeds",2026-06-01 10:06:00,2026-06-01 10:06:00,Success$/);
    // A formula is neutralised with an apostrophe; a cell with a comma or quote is quoted.
    expect(lines[3]).toMatch(
      /,447700900303,"first_name,city","'=HYPERLINK\(""http:\/\/evil""\),Hull, East Riding",2026-06-01 10:06:00,2026-06-01 12:00:01,Expired$/,
    );
  });

  it('e-mails what the filters show: only the matching rows in the CSV, the filters named by the job, the e-mail and the file', async () => {
    // The page the user looks at: Failed rows of numbers containing 30 — two of the five.
    const onScreen = await report(sent, 'delivery', '?status=Failed&search=30');
    expect(onScreen.data.map((row: { Recipient: string }) => row.Recipient)).toEqual(['447700900302', '447700900305']);
    const accepted = await api('POST', `/reporting/${sent}/delivery?status=Failed&search=30`);
    expect(accepted.statusCode, accepted.body).toBe(202);
    expect((await jobs()).data[0]).toMatchObject({ type: 'delivery', filters: { status: 'Failed', search: '30' }, status: 'queued' });

    await worker(sink.url).runDue();
    const mail = await sink.waitForMessage((m) => m.subject.includes('filtered'));
    expect(mail.subject).toBe('Your delivery report (filtered: Status Failed, number containing 30) for “Summer sale” is ready');
    expect(mail.text).toContain('(2 rows that match, CSV)');
    const link = /(http:\/\/herald\.test\/api\/2\.0\/report-downloads\/\S+)/.exec(mail.text)![1]!;
    expect((await jobs()).data[0]).toMatchObject({ status: 'sent', row_count: 2, filters: { status: 'Failed', search: '30' } });
    const file = await download(link);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="Summer-sale-delivery-report-Failed-30.csv"');
    const lines = file.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('SMS_ID,Sender,Recipient,Message_Copy,Status,Expiry_Date');
    expect(lines.slice(1, -1).map((line) => line.split(',')[2])).toEqual(['447700900302', '447700900305']);

    // The unsent report's reasons are the page's too; a value the page refuses is refused here (422, nothing queued).
    const before = (await jobs()).meta.total;
    const refused = await api('POST', `/reporting/${sent}/unsent?reason=expired`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.errors).toEqual({
      reason: ['The reason must be pending, opted_out, stopped, quiet_hours, invalid_number, local_time or frequency_cap.'],
    });
    expect((await jobs()).meta.total).toBe(before);
  });

  it('limits report requests to 10 a minute per token (429 with Retry-After)', async () => {
    const busy = await t.user();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await t.request('POST', `/api/2.0/reporting/${sent}/delivery`, { token: busy.token })).statusCode);
    expect(statuses).toEqual(Array(10).fill(404)); // not their campaign, but each request counts
    const limited = await t.request('POST', `/api/2.0/reporting/${sent}/delivery`, { token: busy.token });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Reading reports is not limited that way.
    expect((await t.request('GET', `/api/2.0/reporting/${sent}/delivery`, { token: busy.token })).statusCode).toBe(404);
  });

  it('refuses forged and expired links', async () => {
    const link = (await jobs()).data[0].download_url as string;
    const forged = await download(link.replace(/signature=./, (s) => (s.endsWith('A') ? `${s.slice(0, -1)}B` : `${s.slice(0, -1)}A`)));
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error.message).toBe('This download link is not valid.');
    const stretched = await download(link.replace(/expires=(\d+)/, (_, n) => `expires=${Number(n) + 86_400}`));
    expect(stretched.statusCode).toBe(403);
    const saved = clock.now();
    clock.set(new Date(saved.getTime() + 8 * 86_400_000));
    try {
      const late = await download(link);
      expect(late.statusCode).toBe(410);
      expect(late.json().error.message).toMatch(/expired/);
      expect((await jobs()).data[0].download_url).toBeNull();
    } finally {
      clock.set(saved);
    }
  });

  it('tries the e-mail again with back-off while the mail server refuses it', async () => {
    await api('POST', `/reporting/${sent}/sent`);
    sink.refuseNext(1, 451, 'Try again later');
    const w = worker(sink.url);
    await w.runDue();
    expect((await jobs()).data[0]).toMatchObject({ type: 'sent', status: 'mailing', row_count: 1 });
    expect((await jobs()).data[0].error).toMatch(/451|Try again later/);
    // Not before its time comes…
    await w.runDue();
    expect((await jobs()).data[0].status).toBe('mailing');
    clock.advance(61_000);
    await w.runDue();
    expect((await jobs()).data[0]).toMatchObject({ status: 'sent', error: null });
    const mail = await sink.waitForMessage((m) => m.subject.includes('sent messages report'));
    const csv = (await download(/(http:\/\/herald\.test\/\S+)/.exec(mail.text)![1]!)).body;
    expect(csv).toContain(`\r\n${sent},Acme,2026-06-01 10:06:00,5,`);
    expect(csv).toContain(',Summer sale,"Hi {{first_name}}, 20% off: ::Shop::"\r\n');
  });

  it('without SMTP, writes the e-mail to DATA_DIR/outbox', async () => {
    await api('POST', `/reporting/${sent}/clicks`);
    await worker(undefined).runDue();
    expect((await jobs()).data[0]).toMatchObject({ type: 'clicks', status: 'sent', row_count: 2 });
    const outbox = await fs.readdir(path.join(dataDir, 'outbox'));
    const eml = await fs.readFile(
      path.join(
        dataDir,
        'outbox',
        outbox.find((name) => name.endsWith('.eml'))!,
      ),
      'utf8',
    );
    expect(eml).toContain('To: ada@shop.test');
    expect(eml).toMatch(/report-downloads\//);
  });

  it('finishes a job whose worker died mid-way: the lease ends and another worker takes it over', async () => {
    await api('POST', `/reporting/${sent}/recipient`);
    // A worker claims it and dies before writing anything (a crash, a kill -9).
    const claimed = await t.services.reportsRepository.claimJob(clock.now(), 600_000);
    expect(claimed).toMatchObject({ type: 'recipient', status: 'writing' });
    await worker(sink.url).runDue();
    expect((await jobs()).data[0].status).toBe('writing'); // still leased to the dead worker
    clock.advance(600_001);
    await worker(sink.url).runDue();
    expect((await jobs()).data[0]).toMatchObject({ type: 'recipient', status: 'sent', row_count: 5 });
    const mail = await sink.waitForMessage((m) => m.subject.includes('recipients report'));
    const csv = (await download(/(http:\/\/herald\.test\/\S+)/.exec(mail.text)![1]!)).body.replace(/^\uFEFF/, '');
    expect(csv.split('\r\n')[0]).toBe('Phone_Number,Group_Name,Group_Description,Field_Names,Field_Values');
    expect(csv).toContain('\r\n447700900304,Walk-ins,,,\r\n');
    // Nothing half-written is left behind: only the published attempt's parts are stored, and nothing was written to disk.
    const { rows } = await t.database.db.execute<{ attempts: number; unpublished: number }>(sql`
      SELECT count(DISTINCT p.attempt)::int AS attempts, count(*) FILTER (WHERE p.attempt IS DISTINCT FROM j.file_attempt)::int AS unpublished
        FROM report_file_parts p JOIN report_jobs j ON j.id = p.job_id JOIN campaigns c ON c.id = j.campaign_id
       WHERE c.uuid = ${sent} AND j.type = 'recipient'`);
    expect(rows[0]).toEqual({ attempts: 1, unpublished: 0 });
    expect(await fs.stat(path.join(dataDir, 'reports')).catch(() => undefined)).toBeUndefined();
  });

  it('fails visibly when the report cannot be stored, and succeeds on the retry once it can', async () => {
    // The database refuses every part (a real refusal: a constraint no row meets, added for the test).
    await t.database.db.execute(sql`ALTER TABLE report_file_parts ADD CONSTRAINT refuse_parts CHECK (false) NOT VALID`);
    try {
      await api('POST', `/reporting/${sent}/unsent`);
      const w = worker(sink.url);
      await w.runDue();
      const failed = (await jobs()).data[0];
      expect(failed).toMatchObject({ type: 'unsent', status: 'writing', error: 'The CSV file could not be written on the server.', download_url: null });
      expect(failed.error).not.toContain('refuse_parts');
    } finally {
      await t.database.db.execute(sql`ALTER TABLE report_file_parts DROP CONSTRAINT refuse_parts`);
    }
    clock.advance(61_000);
    await worker(sink.url).runDue();
    expect((await jobs()).data[0]).toMatchObject({ type: 'unsent', status: 'sent', row_count: 0, error: null });
  });
});
