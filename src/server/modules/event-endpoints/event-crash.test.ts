/**
 * Herald killed (SIGKILL) while its calls to an event endpoint are under way, and started again: the
 * receiver still gets every event of the campaign, each message in exactly one delivery (repeats
 * only under the same `webhook-id`, which a receiver drops), every call signed.
 *
 * Seen red once: with a taken delivery's lease made endless in `claimDue`, the calls the killed
 * process had under way were never made again, and the messages they carried never arrived. Only
 * answered calls count as received: a call held at the kill is not one the receiver took.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { campaignDueNow, crashableHerald, type CrashableHerald } from '../../testing/processes';
import { verifiedBody } from '../../testing/standard-webhooks';
import type { ReceivedCall } from '../../testing/webhook-receiver';

const RECIPIENTS = 200;
let herald: CrashableHerald;
let receiver: http.Server;
let receiverUrl: string;
// Every call received, and whether it was answered (a call held at the kill counts for nothing).
const calls: Array<ReceivedCall & { answered: boolean }> = [];
// While true the receiver takes calls and never answers: the process is killed with them under way.
let holding = true;

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      calls.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body, answered: !holding });
      if (!holding) response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
  herald = await crashableHerald('events', {
    SMS_RATE_LIMIT: '100',
    ENGINE_TICK_MS: '100',
    SMS_SIMULATOR_LATENCY_MS: '5',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_TIMEOUT_MS: '1000',
    EVENT_RETRY_MS: '500',
    EVENT_BATCH_SIZE: '25',
  });
});
afterAll(async () => {
  await herald.dispose();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

type Body = { type: string; data: { campaign?: { uuid: string }; messages?: Array<{ uuid: string }> } };

describe('a crash while events are being delivered', { timeout: 180_000 }, () => {
  it('loses no event: every message of the campaign reaches the receiver, signed, in exactly one delivery', async () => {
    await herald.start();
    const api = await herald.signIn();
    const events = ['campaign.started', 'campaign.finished', 'message.submitted', 'message.delivered', 'message.failed'];
    const { secret } = (await api('POST', '/event-endpoints/', { url: receiverUrl, events })).data;
    const campaign = await campaignDueNow(api, { name: 'Crash events', recipients: RECIPIENTS, firstNumber: 900_000 });

    // The first call arrives and hangs: the process dies with it (and any others) under way.
    await vi.waitFor(() => expect(calls.length).toBeGreaterThan(0), { timeout: 60_000, interval: 20 });
    await herald.kill();
    const underWay = new Set(calls.map((call) => String(call.headers['webhook-id'])));
    holding = false;

    await herald.start();
    await vi.waitFor(async () => expect((await api('GET', `/campaigns/${campaign}`)).data.status).toBe(2), { timeout: 120_000, interval: 200 });

    const db = await herald.database();
    try {
      const { rows } = await db.query(`SELECT m.uuid::text FROM messages m JOIN campaigns c ON c.id = m.campaign_id WHERE c.uuid = $1`, [campaign]);
      const all = rows.map((row) => row.uuid as string).sort();
      expect(all).toHaveLength(RECIPIENTS);
      // Each distinct delivery taken by the receiver, once (a repeat carries the same webhook-id and body).
      const distinct = () => {
        const byId = new Map<string, Body>();
        for (const call of calls) if (call.answered) byId.set(String(call.headers['webhook-id']), verifiedBody(secret, call) as Body);
        return [...byId.values()];
      };
      const messagesOf = (types: string[]) =>
        distinct()
          .filter((body) => types.includes(body.type))
          .flatMap((body) => body.data.messages!.map((message) => message.uuid));
      // The calls held at the kill are made again, under the same webhook-id, once their lease has passed.
      expect(underWay.size).toBeGreaterThan(0);
      await vi.waitFor(
        () => {
          for (const id of underWay)
            expect(
              calls.some((call) => call.answered && call.headers['webhook-id'] === id),
              `delivery ${id}`,
            ).toBe(true);
          expect(messagesOf(['message.submitted'])).toHaveLength(RECIPIENTS);
          expect(messagesOf(['message.delivered', 'message.failed'])).toHaveLength(RECIPIENTS);
        },
        { timeout: 60_000, interval: 200 },
      );
      expect(messagesOf(['message.submitted']).sort()).toEqual(all);
      expect(messagesOf(['message.delivered', 'message.failed']).sort()).toEqual(all);
      const lifecycle = distinct().filter((body) => body.type.startsWith('campaign.'));
      expect(lifecycle.map((body) => [body.type, body.data.campaign!.uuid]).sort()).toEqual([
        ['campaign.finished', campaign],
        ['campaign.started', campaign],
      ]);
      // Every call at most 25 messages.
      expect(Math.max(...distinct().map((body) => body.data.messages?.length ?? 0))).toBeLessThanOrEqual(25);
    } finally {
      await db.end();
    }
  });
});
