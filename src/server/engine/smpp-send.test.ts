import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatTimestamp } from '../lib/time';
import { childEnv, embeddedDatabase, freePort, runHerald, signIn, waitForHealthy, type ApiCall, type HeraldProcess } from '../testing/processes';
import { SmppPeer, type PeerSubmit } from '../testing/smpp-peer';

// Herald as it runs for real, sending a campaign to a carrier's SMSC over SMPP and hearing back from handsets.
const RECIPIENTS = 25;
const ESME_RINVDSTADR = 0x0b;
const TON_INTERNATIONAL = 1;
const TON_NETWORK_SPECIFIC = 3;
const TON_ALPHANUMERIC = 5;
const DATA_CODING_GSM = 0;
const DATA_CODING_UCS2 = 8;
const ESM_CLASS_UDHI = 0x40;

// Cyrillic: UCS-2 (70 characters in one SMS, 67 a part), and about 80 once rendered: two parts.
const TEMPLATE = 'Привет {{first_name}}! Это сообщение проверяет отправку кампании по SMPP в двух частях.';
const number = (i: number) => `447700900${String(i).padStart(3, '0')}`;
const firstName = (i: number) => `Гость${i}`;
const rendered = (i: number) => TEMPLATE.replace('{{first_name}}', firstName(i));
const REJECTED = number(13);
const OPTING_OUT = number(5);
const NEWCOMER = '447700900999';
const REPLY = 'Welcome to the club! Reply STOP to leave.';
const SHORT_CODE = '88440';

let dataDir: string;
let port: number;
let peer: SmppPeer;
let herald: HeraldProcess | undefined;
let api: ApiCall;

const database = () => embeddedDatabase(dataDir);

async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const db = await database();
  try {
    return (await db.query<T>(text, values)).rows;
  } finally {
    await db.end();
  }
}

/** Submits to one number, grouped by concatenation reference (a single-part message is its own group). */
function messagesTo(destination: string, submits: PeerSubmit[]): PeerSubmit[][] {
  const groups = new Map<string, PeerSubmit[]>();
  submits
    .filter((submit) => submit.destinationAddr === destination)
    .forEach((submit, index) => {
      const key = submit.concatenation ? `ref:${submit.concatenation.reference}` : `single:${index}`;
      groups.set(key, [...(groups.get(key) ?? []), submit]);
    });
  return [...groups.values()];
}

beforeAll(async () => {
  peer = await SmppPeer.start();
  peer.autoReceipt = 'DELIVRD';
  peer.rejectTo(REJECTED, ESME_RINVDSTADR);
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-smpp-'));
  await fs.chmod(dataDir, 0o755);
  port = await freePort();
  const env = childEnv({
    DATA_DIR: dataDir,
    PORT: String(port),
    HERALD_ADMIN_EMAIL: 'admin@smpp.test',
    HERALD_ADMIN_PASSWORD: 'smpp-password-1',
    SMS_GATEWAY: peer.url({ window: 5 }),
    SMS_RATE_LIMIT: '50',
    ENGINE_TICK_MS: '100',
  });
  herald = runHerald('src/server/main.ts', [], env);
  await waitForHealthy(port, herald);
  api = await signIn(port, 'admin@smpp.test', 'smpp-password-1');
  // The gateway binds as the worker starts; mobile-originated messages need that bind.
  await vi.waitFor(() => expect(peer.binds.some((bind) => bind.accepted)).toBe(true), { timeout: 30_000, interval: 100 });
}, 180_000);

afterAll(async () => {
  if (herald && herald.child.exitCode === null) {
    herald.child.kill('SIGTERM');
    await herald.exited;
  }
  await peer?.close();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
}, 60_000);

describe('sending over SMPP, end to end', { timeout: 180_000 }, () => {
  let campaign: string;

  it('sends a two-part UCS-2 campaign: every number once, receipts and a permanent refusal settle every message', async () => {
    const keyword = await api('POST', '/keywords/', { keyword: 'JOIN', message: REPLY });
    expect(keyword.data.keyword).toBe('JOIN');

    const template = (await api('POST', '/templates/', { name: 'Privet', body: TEMPLATE, sender: 'Herald' })).data.uuid;
    const group = (await api('POST', '/contact-groups/', { name: 'Everyone' })).data.uuid;
    const contacts = Array.from({ length: RECIPIENTS }, (_, i) => ({
      phone_number: `07700900${String(i).padStart(3, '0')}`,
      custom_fields: { first_name: firstName(i) },
    }));
    expect((await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts })).data.number_of_contacts).toBe(RECIPIENTS);
    const now = Date.now();
    campaign = (
      await api('POST', '/campaigns/', {
        name: 'SMPP test',
        sender: 'Herald',
        scheduled_send_date: formatTimestamp(new Date(now + 1000), 'Europe/London'),
        expiry_date: formatTimestamp(new Date(now + 3_600_000), 'Europe/London'),
        included_contact_groups: [group],
        excluded_contact_groups: [],
        template_uuid: template,
      })
    ).data.uuid;

    await vi.waitFor(
      async () => {
        expect((await api('GET', `/campaigns/${campaign}`)).data.status).toBe(2);
        expect((await api('GET', `/campaigns/${campaign}/summary`)).data).toMatchObject({
          recipients: RECIPIENTS,
          queued: 0,
          submitted: 0,
          delivered: RECIPIENTS - 1,
          failed: 1,
          unsent: 0,
        });
      },
      { timeout: 120_000, interval: 200 },
    );

    // Herald's record: each message's text as sent, the carrier's id of its first part, the refusal's reason.
    const rows = await query<{ phone_number: string; status: string; reason: string | null; body: string; gateway_id: string | null }>(
      `SELECT phone_number, status, reason, body, gateway_id FROM messages ORDER BY phone_number`,
    );
    expect(rows).toHaveLength(RECIPIENTS);
    for (const [i, row] of rows.entries()) {
      expect(row.phone_number).toBe(number(i));
      expect(row.body).toBe(rendered(i));
      if (row.phone_number === REJECTED) {
        expect(row).toMatchObject({ status: 'failed', gateway_id: null });
        expect(row.reason).toMatch(/ESME_RINVDSTADR/);
      } else {
        expect(row).toMatchObject({ status: 'delivered', reason: null });
      }
    }

    // The carrier's side: one two-part message per number, none twice.
    const accepted = peer.accepted();
    expect(accepted).toHaveLength((RECIPIENTS - 1) * 2);
    expect(peer.submits).toHaveLength((RECIPIENTS - 1) * 2 + 1);
    for (const [i, row] of rows.entries()) {
      const destination = number(i);
      if (destination === REJECTED) {
        // Refused for good on its first part: the second is never sent, nor is the message offered again.
        const refused = peer.submits.filter((submit) => submit.destinationAddr === destination);
        expect(refused).toHaveLength(1);
        expect(refused[0]).toMatchObject({ status: ESME_RINVDSTADR, concatenation: { total: 2, sequence: 1 } });
        continue;
      }
      const messages = messagesTo(destination, accepted);
      expect(messages, destination).toHaveLength(1);
      const parts = [...messages[0]!].sort((a, b) => a.concatenation!.sequence - b.concatenation!.sequence);
      expect(parts.map((part) => part.concatenation)).toEqual([
        { reference: parts[0]!.concatenation!.reference, total: 2, sequence: 1 },
        { reference: parts[0]!.concatenation!.reference, total: 2, sequence: 2 },
      ]);
      expect(parts.map((part) => part.text).join('')).toBe(rendered(i));
      for (const part of parts) {
        expect(part).toMatchObject({
          sourceAddr: 'Herald',
          sourceTon: TON_ALPHANUMERIC,
          destTon: TON_INTERNATIONAL,
          dataCoding: DATA_CODING_UCS2,
          payload: null,
        });
        expect(part.esmClass & ESM_CLASS_UDHI).toBe(ESM_CLASS_UDHI);
        expect(part.registeredDelivery & 0x01).toBe(1);
      }
      expect(row.gateway_id).toBe(parts[0]!.messageId);
    }
  });

  it('hears a keyword from a handset and sends its reply back over SMPP', async () => {
    const before = peer.submits.length;
    peer.sendMo({ from: NEWCOMER, to: SHORT_CODE, body: 'join' });

    await vi.waitFor(() => expect(peer.accepted().filter((submit) => submit.destinationAddr === NEWCOMER)).toHaveLength(1), { timeout: 60_000, interval: 100 });
    const reply = peer.submits.slice(before).filter((submit) => submit.destinationAddr === NEWCOMER);
    expect(reply).toHaveLength(1);
    expect(reply[0]).toMatchObject({
      text: REPLY,
      dataCoding: DATA_CODING_GSM,
      sourceAddr: SHORT_CODE,
      sourceTon: TON_NETWORK_SPECIFIC,
      destTon: TON_INTERNATIONAL,
      concatenation: null,
    });

    const inbound = (await api('GET', '/inbound-messages/')).data;
    expect(inbound.find((message: { from: string }) => message.from === NEWCOMER)).toMatchObject({
      body: 'join',
      source: 'gateway',
      keyword: { keyword: 'JOIN' },
      opted_out: false,
      actions: [{ type: 'reply_queued', ok: true }],
    });
    // A reply's status follows its receipt (the peer's delivery receipt comes back over the bind).
    await vi.waitFor(
      async () =>
        expect(await query(`SELECT to_number, sender, body, status FROM outbound_replies`)).toEqual([
          { to_number: NEWCOMER, sender: SHORT_CODE, body: REPLY, status: 'delivered' },
        ]),
      { timeout: 30_000, interval: 100 },
    );
  });

  it('hears STOP from a recipient: the team that texted the number sees it and texts it no more', async () => {
    const acks = peer.deliverAcks;
    peer.sendMo({ from: OPTING_OUT, fromTon: TON_INTERNATIONAL, to: SHORT_CODE, body: 'STOP' });
    await vi.waitFor(() => expect(peer.deliverAcks).toBeGreaterThan(acks), { timeout: 30_000, interval: 100 });

    await vi.waitFor(
      async () => {
        const inbound = (await api('GET', '/inbound-messages/')).data;
        expect(inbound.find((message: { from: string }) => message.from === OPTING_OUT)).toMatchObject({
          body: 'STOP',
          source: 'gateway',
          keyword: null,
          opted_out: true,
          actions: [
            { type: 'opted_out', ok: true },
            { type: 'reply_queued', ok: true },
          ],
        });
      },
      { timeout: 30_000, interval: 200 },
    );
    // The team's confirmation reaches the handset over SMPP, from the short code, once.
    await vi.waitFor(() => expect(peer.submits.filter((submit) => submit.destinationAddr === OPTING_OUT && submit.sourceAddr === SHORT_CODE)).toHaveLength(1), {
      timeout: 30_000,
      interval: 200,
    });
    const groups = (await api('GET', '/contact-groups/?per_page=100')).data;
    const optouts = groups.find((group: { name: string }) => group.name === 'default_optouts').uuid;
    const members = (await api('GET', `/contact-groups/${optouts}/contacts`)).data;
    expect(members.map((contact: { phone_number: string }) => contact.phone_number)).toEqual([OPTING_OUT]);
    // One team holds the number, so one record of it.
    const rows = await query(`SELECT from_number, body, source, opted_out FROM inbound_messages WHERE from_number = $1`, [OPTING_OUT]);
    expect(rows).toEqual([{ from_number: OPTING_OUT, body: 'STOP', source: 'gateway', opted_out: true }]);
  });
});
