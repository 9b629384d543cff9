/**
 * Each message's connection and provider error where a message is listed (issue 34, point 5): the
 * delivery reports' pages (plain and filtered), their NDJSON, and the contact page and its export
 * name the SMS connection that carried a message and the provider's own id for it, with the
 * provider's error code as the reason; the CSV keeps exactly the interface's columns; a message
 * through the installation's gateway keeps its row as it was (no new key); a deleted connection
 * leaves `connection` null. The messages are set to what the router records (connection_id, the
 * gateway id `c<connection>:<provider id>`, the provider's code as reason) in SQL: sending is
 * provider-routing.test.ts's.
 *
 * Seen red: with lib/message-connections.ts's `carriedBy` ignoring `routed` (the keys on every row), the gateway's rows gained
 * `connection: null` and the "as it was" assertions failed; with providerIdOf left out (the gateway
 * id as stored), `provider_message_id` read `c<id>:SM…`; with the LEFT JOIN made an inner join,
 * the gateway's and the deleted connection's messages vanished from the page (2 rows instead of 5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_COLUMNS } from '../../../shared/contract';
import { sentReportCampaign } from '../../testing/report-campaign';
import { csvRecordsOf, ndjsonRowsOf } from '../../testing/report-text';
import { createTestApp, createTestClock, type TestApp, type TestUser } from '../../testing/test-app';

const clock = createTestClock('2026-06-01T09:00:00Z');
let t: TestApp;
let owner: TestUser;
let campaign: string;
let twilio: string;
let vonage: string;

const get = async (user: TestUser, url: string) => {
  const response = await t.request('GET', `/api/2.0${url}`, { token: user.token });
  expect(response.statusCode, response.body).toBe(200);
  return response;
};
type Row = Record<string, unknown>;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await t.user();
  campaign = await sentReportCampaign(t, { token: owner.token, clock, name: 'Routed', contacts: 5, first: 600 });
  const connect = async (body: Record<string, unknown>) => {
    const response = await t.request('POST', '/api/2.0/sms-connections/', { token: owner.token, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.uuid as string;
  };
  twilio = await connect({
    name: 'Twilio UK',
    provider: 'twilio',
    credentials: { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'twilio-auth-token-0123456789' },
    senders: ['+447700900001'],
    max_per_second: 10,
  });
  vonage = await connect({
    name: 'Vonage EU',
    provider: 'vonage',
    credentials: { api_key: 'vonage-key', api_secret: 'vonage-secret-0123', signature_secret: 'vonage-signature-secret-0123' },
    senders: ['Acme'],
    max_per_second: 10,
  });
  const idOf = async (uuid: string) => (await t.database.pool.query('SELECT id::int AS id FROM sms_connections WHERE uuid = $1', [uuid])).rows[0].id as number;
  const [twilioId, vonageId] = [await idOf(twilio), await idOf(vonage)];
  // …600 delivered through Twilio; …601 refused by Twilio for the recipient (opted out there); …602
  // delivered through Vonage, whose connection is then deleted; …603 and …604 through SMS_GATEWAY.
  const set = (number: string, values: { connection: number; gatewayId: string | null; status: string; reason: string | null }) =>
    t.database.pool.query(
      `UPDATE messages m SET connection_id = $3, gateway_id = $4, status = $5, reason = $6, finished_at = now()
         FROM campaigns c WHERE c.id = m.campaign_id AND c.uuid = $1 AND m.phone_number = $2`,
      [campaign, number, values.connection, values.gatewayId, values.status, values.reason],
    );
  await set('447700900600', { connection: twilioId, gatewayId: `c${twilioId}:SM0123456789abcdef0123456789abcdef`, status: 'delivered', reason: null });
  await set('447700900601', { connection: twilioId, gatewayId: null, status: 'failed', reason: '21610' });
  await set('447700900602', { connection: vonageId, gatewayId: `c${vonageId}:0A0000001234ABCD`, status: 'delivered', reason: null });
  expect((await t.request('DELETE', `/api/2.0/sms-connections/${vonage}`, { token: owner.token })).statusCode).toBe(204);
});
afterAll(() => t.close());

const TWILIO_REF = () => ({ uuid: twilio, name: 'Twilio UK', provider: 'twilio' });

describe('the delivery reports name the connection and the provider’s id', () => {
  it('on each page row of a message a connection carried, and on no other', async () => {
    const rows = (await get(owner, `/reporting/${campaign}/delivery`)).json().data as Row[];
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatchObject({
      Recipient: '447700900600',
      Status: 'Success',
      connection: TWILIO_REF(),
      provider_message_id: 'SM0123456789abcdef0123456789abcdef',
    });
    expect(rows[1]).toMatchObject({
      Recipient: '447700900601',
      Status: 'Failed',
      failure_reason: '21610',
      connection: TWILIO_REF(),
      provider_message_id: null,
    });
    // Its connection deleted since: the row stays, naming none.
    expect(rows[2]).toMatchObject({ Recipient: '447700900602', Status: 'Success', connection: null, provider_message_id: '0A0000001234ABCD' });
    // Through the installation's gateway: the row as it was.
    for (const row of rows.slice(3)) {
      expect(Object.keys(row)).toEqual([...REPORT_COLUMNS.delivery, 'failure_reason', 'sent_at', 'delivered_at']);
    }

    const alt = (await get(owner, `/reporting/${campaign}/alt_delivery`)).json().data as Row[];
    expect(alt.map((row) => [row.Mobile, row.connection, row.provider_message_id])).toEqual([
      ['447700900600', TWILIO_REF(), 'SM0123456789abcdef0123456789abcdef'],
      ['447700900601', TWILIO_REF(), null],
      ['447700900602', null, '0A0000001234ABCD'],
      ['447700900603', undefined, undefined],
      ['447700900604', undefined, undefined],
    ]);
    expect(Object.keys(alt[3]!)).toEqual([...REPORT_COLUMNS.alt_delivery, 'failure_reason']);
  });

  it('on a filtered page too', async () => {
    const failed = (await get(owner, `/reporting/${campaign}/delivery?status=Failed`)).json().data as Row[];
    expect(failed).toEqual([
      expect.objectContaining({ Recipient: '447700900601', failure_reason: '21610', connection: TWILIO_REF(), provider_message_id: null }),
    ]);
    const searched = (await get(owner, `/reporting/${campaign}/alt_delivery?search=602`)).json().data as Row[];
    expect(searched).toEqual([expect.objectContaining({ Mobile: '447700900602', connection: null, provider_message_id: '0A0000001234ABCD' })]);
  });

  it('in the NDJSON stream, while the CSV keeps exactly the interface’s columns', async () => {
    const ndjson = ndjsonRowsOf((await get(owner, `/reporting/${campaign}/delivery.ndjson`)).body);
    expect(ndjson.map((row) => (row as Row).connection)).toEqual([TWILIO_REF(), TWILIO_REF(), null, undefined, undefined]);
    const csv = (await get(owner, `/reporting/${campaign}/delivery.csv`)).body;
    expect(csvRecordsOf(csv).header).toEqual(REPORT_COLUMNS.delivery);
    expect(csv).not.toMatch(/Twilio|SM0123|0A0000001234ABCD/);
  });
});

describe('the contact page names them too', () => {
  it('in the message history and the export', async () => {
    const detail = (await get(owner, '/contacts/447700900601')).json().data;
    expect(detail.messages.items).toEqual([
      expect.objectContaining({ status: 'failed', reason: '21610', connection: TWILIO_REF(), provider_message_id: null }),
    ]);
    const delivered = (await get(owner, '/contacts/447700900600')).json().data;
    expect(delivered.messages.items[0]).toMatchObject({ connection: TWILIO_REF(), provider_message_id: 'SM0123456789abcdef0123456789abcdef' });
    const deleted = (await get(owner, '/contacts/447700900602')).json().data;
    expect(deleted.messages.items[0]).toMatchObject({ connection: null, provider_message_id: '0A0000001234ABCD' });
    const gateway = (await get(owner, '/contacts/447700900603')).json().data;
    expect(Object.keys(gateway.messages.items[0]).sort()).toEqual(['campaign', 'delivered_at', 'reason', 'sent_at', 'status']);

    const document = (await get(owner, '/contacts/447700900601/export')).json().data;
    expect(document.messages[0]).toMatchObject({ reason: '21610', connection: TWILIO_REF(), provider_message_id: null });
  });

  it('shows another team none of it', async () => {
    const stranger = await t.user();
    const response = await t.request('GET', `/api/2.0/reporting/${campaign}/delivery`, { token: stranger.token });
    expect(response.statusCode).toBe(404);
  });
});
