import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectGateway, sms, waitFor } from '../gateways/sms/smpp/smpp-gateway.harness';
import { SmppPeer } from '../testing/smpp-peer';
import { createTestApp, type TestApp } from '../testing/test-app';
import { errorCode, instrumentGateway } from './instrumented-gateway';
import { createMetrics } from './metrics';
import { checkReadiness } from './readiness';

// The gateway's metrics and readiness in a process that sends, over a real SMPP peer (a socket, a
// bind): submit time, refusals by SMPP status, the bind state as the peer goes away and comes back.
// Seen red once each: `gateway.connected` not read (the gauge stayed 1, readiness stayed ok with the
// peer gone); refusals counted under their free text instead of `errorCode` (the label was the
// whole reason, `SMPP 0x0000000B ESME_RINVDSTADR`); no count of the messages offered (the refusal
// ratio's denominator was hand-overs: `herald_gateway_messages_total` was absent).
const ESME_RINVDSTADR = 0x0b;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** `name{labels} value` lines of a scrape, as a map from the series to its value. */
async function scrape(metrics: ReturnType<typeof createMetrics>): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  for (const line of (await metrics.render()).body.split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

describe('the SMS gateway observed', () => {
  it('names a refusal by its SMPP status, a vendor status by its number, and nothing else by free text', () => {
    expect(errorCode('SMPP 0x0000000B ESME_RINVDSTADR')).toBe('ESME_RINVDSTADR');
    expect(errorCode('SMPP 0x00000400')).toBe('0x00000400');
    expect(errorCode('Undeliverable to +447700900001')).toBe('rejected');
  });

  it('times each hand-over, counts refusals by code, and reports the bind as the peer goes and comes back', async () => {
    const metrics = createMetrics({ database: t.database });
    const { peer, gateway: smpp } = await connectGateway({ connectWaitMs: 300 });
    const gateway = instrumentGateway(smpp, metrics);
    peer.rejectTo('447700900999', ESME_RINVDSTADR); // on the wire without the plus (TON international)

    const results = await gateway.submit([sms('hello', '+447700900001'), sms('hello', '+447700900999'), sms('again', '+447700900999')]);
    expect(results.filter((result) => 'gatewayId' in result)).toHaveLength(1);
    let values = await scrape(metrics);
    expect(values.get('herald_gateway_submit_seconds_count')).toBe(1);
    expect(values.get('herald_gateway_submit_seconds_sum')).toBeGreaterThan(0);
    expect(values.get('herald_gateway_errors_total{code="ESME_RINVDSTADR"}')).toBe(2);
    // The refusal ratio divides messages by messages: 2 refused of the 3 offered in one hand-over.
    expect(values.get('herald_gateway_messages_total')).toBe(3);
    expect(values.get('herald_gateway_connected')).toBe(1);
    expect((await checkReadiness({ database: t.database, gateway: metrics.gateway() })).checks.sms_gateway).toEqual({ status: 'ok' });

    // The carrier goes away: the bind is down, readiness says so, and what is offered is not sent.
    const port = peer.port;
    await peer.close();
    await waitFor(() => smpp.connected?.() === false, 'the bind to drop');
    values = await scrape(metrics);
    expect(values.get('herald_gateway_connected')).toBe(0);
    const down = await checkReadiness({ database: t.database, gateway: metrics.gateway() });
    expect(down.ready).toBe(false);
    expect(down.checks.sms_gateway).toEqual({ status: 'failing', detail: expect.stringContaining('not bound') });
    expect(await gateway.submit([sms('while down')])).toEqual([{ clientRef: expect.any(String), notSent: true }]);
    expect((await scrape(metrics)).get('herald_gateway_errors_total{code="not_sent"}')).toBe(1);
    expect((await scrape(metrics)).get('herald_gateway_messages_total')).toBe(4);

    // Back on its address: the gateway binds again by itself.
    const back = await SmppPeer.start({ port });
    try {
      await waitFor(() => smpp.connected?.() === true, 'the bind to come back', 15_000);
      expect((await scrape(metrics)).get('herald_gateway_connected')).toBe(1);
      expect((await checkReadiness({ database: t.database, gateway: metrics.gateway() })).ready).toBe(true);
    } finally {
      await smpp.close();
      await back.close();
    }
  });
});
