/**
 * Nothing the SMSC delivers is acknowledged before it is stored, and nothing handed over is called
 * "not sent" (issue #16). What is counted is what the SMSC saw: the deliver_sm_resp statuses the test
 * peer received, and the submit_sm it was given.
 *
 * Shown able to fail, each once, by removing its protection and running this file:
 * - answering every deliver_sm at once, before the listener (as the gateway did before): "is not
 *   acknowledged before it is stored" and "a gateway that dies … is delivered to the next" went red
 *   (the peer counted an acknowledgement while the store still held the message, and the second
 *   gateway never saw the STOP);
 * - answering success whatever the listener does: "a store that fails is answered ESME_RX_T_APPN"
 *   went red (no 0x64 among the responses, and the message was not delivered again);
 * - answering each receipt part at once: "the parts of a long message's receipt wait" went red;
 * - returning every unanswered part as not sent: "a submit_sm written and never answered is in
 *   doubt" went red (the message came back notSent, which the engine would send again).
 */
import { describe, expect, it } from 'vitest';
import { SmppPeer } from '../../../testing/smpp-peer';
import type { InboundSms } from '../sms-gateway';
import { connectGateway, sms, waitFor } from './smpp-gateway.harness';

const ESME_RX_T_APPN = 0x64;
const longGsm = `${'a'.repeat(200)} ${'b'.repeat(200)}`; // 3 parts

/** A store the test opens and closes: values wait while it is closed; `failing` refuses them. */
function controllableStore() {
  let open = false;
  let failing = false;
  const waiting: Array<() => void> = [];
  return {
    async keep(): Promise<void> {
      if (failing) throw new Error('the database is down');
      if (!open) await new Promise<void>((resolve) => waiting.push(resolve));
    },
    open() {
      open = true;
      for (const resolve of waiting.splice(0)) resolve();
    },
    fail(value: boolean) {
      failing = value;
    },
  };
}

describe('SMPP gateway: durable deliveries', () => {
  it('is not acknowledged before it is stored', async () => {
    const store = controllableStore();
    const { peer, inbound } = await connectGateway({ store: { inbound: () => store.keep() } });
    await waitFor(() => peer.binds.some((bind) => bind.accepted), 'the bind');

    peer.sendMo({ from: '447700900123', to: '80001', body: 'STOP' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(peer.deliverResponses).toEqual([]); // still being stored: not answered
    expect(inbound).toEqual([]);

    store.open();
    await waitFor(() => peer.deliverAcks === 1, 'the acknowledgement');
    expect(inbound.map((message) => message.body)).toEqual(['STOP']);
  });

  it('a store that fails is answered ESME_RX_T_APPN, the SMSC delivers it again, and it is kept once stored, with the same key', async () => {
    const store = controllableStore();
    store.fail(true);
    store.open();
    const keys: string[] = [];
    const { peer, inbound, logs } = await connectGateway({
      store: {
        inbound: async (message) => {
          keys.push(message.key!);
          await store.keep();
        },
      },
    });
    await waitFor(() => peer.binds.some((bind) => bind.accepted), 'the bind');

    peer.sendMo({ from: '447700900123', to: '80001', body: 'STOP' });
    await waitFor(() => peer.deliverResponses.length >= 2, 'two refusals');
    store.fail(false);
    await waitFor(() => peer.deliverAcks === 1, 'the acknowledgement once stored');

    expect(peer.deliverResponses.slice(0, 2)).toEqual([ESME_RX_T_APPN, ESME_RX_T_APPN]);
    expect(peer.deliverResponses.at(-1)).toBe(0);
    expect(peer.pendingDeliveries).toBe(0);
    expect(inbound).toHaveLength(1);
    expect(new Set(keys).size).toBe(1); // every delivery of it named alike: the inbound store keeps it once
    expect(logs.some((entry) => entry.level === 'error' && entry.message.includes('ESME_RX_T_APPN'))).toBe(true);
  });

  it('a receipt whose store fails is delivered again until it is stored', async () => {
    const store = controllableStore();
    store.fail(true);
    store.open();
    const { peer, gateway, receipts } = await connectGateway({ store: { receipt: () => store.keep() } });
    const [result] = await gateway.submit([sms('one')]);

    peer.sendReceipt((result as { gatewayId: string }).gatewayId, 'DELIVRD');
    await waitFor(() => peer.deliverResponses.includes(ESME_RX_T_APPN), 'a refusal');
    store.fail(false);
    await waitFor(() => peer.deliverAcks === 1, 'the acknowledgement');

    expect(receipts).toEqual([{ gatewayId: (result as { gatewayId: string }).gatewayId, status: 'delivered', reason: null, at: expect.any(Date) }]);
  });

  it('a gateway that dies before storing has the SMSC deliver the STOP to the next one, whole and with the same key', async () => {
    const peer = await SmppPeer.start();
    try {
      const seenFirst: InboundSms[] = [];
      const neverStored = async (message: InboundSms) => {
        seenFirst.push(message);
        await new Promise<void>(() => undefined); // it dies first
      };
      const first = await connectGateway({ peer, store: { inbound: neverStored } });
      await waitFor(() => peer.binds.some((bind) => bind.accepted), 'the first bind');
      peer.sendMo({ from: '447700900123', to: '80001', body: `STOP ${'x'.repeat(150)}`, parts: 2 });
      await waitFor(() => peer.pendingDeliveries === 2, 'both parts sent');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(peer.deliverResponses).toEqual([]); // neither part answered while the message is not stored
      await first.gateway.close(); // the process is gone, its connection with it
      const second = await connectGateway({ peer });
      await waitFor(() => second.inbound.length === 1, 'the STOP at the next gateway');
      await waitFor(() => peer.pendingDeliveries === 0, 'both parts acknowledged');

      expect(second.inbound[0]!.body).toBe(`STOP ${'x'.repeat(150)}`);
      expect(second.inbound[0]!.key).toBe(seenFirst[0]!.key);
    } finally {
      await peer.close();
    }
  });

  it('the parts of a long message’s receipt wait, unanswered, for the message’s receipt to be stored', async () => {
    const { peer, gateway, receipts } = await connectGateway();
    await gateway.submit([sms(longGsm)]);
    const [part1, part2, part3] = peer.accepted().map((part) => part.messageId!);

    peer.sendReceipt(part1!, 'DELIVRD');
    peer.sendReceipt(part2!, 'DELIVRD');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(peer.deliverResponses).toEqual([]);

    peer.sendReceipt(part3!, 'DELIVRD');
    await waitFor(() => peer.deliverAcks === 3, 'all three parts answered');
    expect(receipts).toEqual([{ gatewayId: part1, status: 'delivered', reason: null, at: expect.any(Date) }]);
  });

  it('settles a long message from the parts whose receipts came, once it has waited long enough', async () => {
    const { peer, gateway, receipts, logs } = await connectGateway({ receiptPartsHoldMs: 150 });
    await gateway.submit([sms(longGsm)]);
    const [part1, part2] = peer.accepted().map((part) => part.messageId!);

    peer.sendReceipt(part1!, 'DELIVRD');
    peer.sendReceipt(part2!, 'UNDELIV', { err: '00B' });
    await waitFor(() => peer.deliverAcks === 2, 'both parts answered after the wait');

    expect(receipts).toEqual([{ gatewayId: part1, status: 'failed', reason: 'UNDELIV err:00B', at: expect.any(Date) }]);
    expect(logs.some((entry) => entry.message.includes('not every part'))).toBe(true);
  });
});

describe('SMPP gateway: sent, not sent, or in doubt', () => {
  it('a submit_sm written and never answered is in doubt: left out of the results, never called not sent', async () => {
    const { peer, gateway } = await connectGateway({ query: { window: 1 } });
    peer.holdAfter(0);
    const batch = [sms('one', '+447700900201'), sms('two', '+447700900202')];

    const pending = gateway.submit(batch);
    await waitFor(() => peer.submits.length === 1, 'the first submit_sm written');
    peer.dropConnections();
    const results = await pending;

    // "one" was written and may have reached the handset; "two" then went out on the new link.
    expect(results.map((result) => result.clientRef)).toEqual([batch[1]!.clientRef]);
    expect(peer.handedOver().get('447700900201')).toBe(1);
  });

  it('messages not yet written when the submission is aborted come back not sent, and reach no one', async () => {
    const { peer, gateway } = await connectGateway({ query: { window: 1 } });
    peer.responseDelayMs = 100;
    const controller = new AbortController();
    const batch = Array.from({ length: 5 }, (_, index) => sms(`m${index}`, `+44770090030${index}`));

    const pending = gateway.submit(batch, { signal: controller.signal });
    await waitFor(() => peer.submits.length === 1, 'the first submit_sm');
    controller.abort();
    const results = await pending;

    const notSent = results.filter((result) => 'notSent' in result).map((result) => result.clientRef);
    const written = new Set(peer.submits.map((submit) => submit.text));
    expect(notSent.length).toBeGreaterThanOrEqual(3);
    for (const clientRef of notSent) expect(written.has(batch.find((message) => message.clientRef === clientRef)!.body)).toBe(false);
    expect(results.filter((result) => 'gatewayId' in result).length + notSent.length).toBe(5);
  });

  it('a message throttled until the gateway gives up is not sent (offered again later), not in doubt', async () => {
    const { peer, gateway } = await connectGateway({ throttleGiveUpMs: 100 });
    peer.throttleNext(1_000);

    const [result] = await gateway.submit([sms('busy')]);

    expect(result).toEqual({ clientRef: expect.any(String), notSent: true });
    expect(peer.handedOver().size).toBe(0);
  });
});
