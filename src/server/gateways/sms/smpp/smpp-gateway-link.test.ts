import { describe, expect, it } from 'vitest';
import { connectGateway, sms, waitFor } from './smpp-gateway.harness';

describe('SMPP gateway: the link to the SMSC', () => {
  it('binds as a transceiver with the credentials and system_type of the URL, speaking SMPP 3.4', async () => {
    const { peer, gateway } = await connectGateway({ query: { system_type: 'HERALD' } });

    await gateway.submit([sms('hello')]);

    expect(peer.binds).toEqual([{ systemId: 'herald', password: 'secret', systemType: 'HERALD', interfaceVersion: 0x34, accepted: true }]);
  });

  it('logs a refused bind as an error, keeps retrying, and submit gives up after its wait with the message not sent', async () => {
    const { peer, gateway, logs } = await connectGateway({ password: 'wrong-pw', connectWaitMs: 300 });

    const results = await gateway.submit([sms('hello')]);
    await waitFor(() => peer.binds.length >= 3, 'repeated bind attempts');

    expect(results).toEqual([{ clientRef: expect.any(String), notSent: true }]); // certainly not handed over: offered again later
    expect(peer.binds.every((bind) => !bind.accepted)).toBe(true);
    expect(logs.some((entry) => entry.level === 'error' && entry.message.includes('ESME_RBINDFAIL'))).toBe(true);
    expect(logs.some((entry) => entry.message.includes('wrong-pw'))).toBe(false);
  });

  it('sends enquire_link on its interval', async () => {
    const { peer, gateway } = await connectGateway({ query: { enquire_link_ms: 50 } });
    await gateway.submit([sms('hello')]);

    await waitFor(() => peer.enquireLinks >= 3, 'three enquire_link');

    expect(peer.binds).toHaveLength(1); // all answered: the link stayed up
  });

  it("answers the SMSC's enquire_link", async () => {
    const { peer, gateway } = await connectGateway();
    await gateway.submit([sms('hello')]);

    await expect(peer.enquireLinkClient()).resolves.toBe(0);
  });

  it('answers an unbind from the SMSC and binds again', async () => {
    const { peer, gateway } = await connectGateway();
    await gateway.submit([sms('hello')]);

    await expect(peer.unbindClient()).resolves.toBe(0);
    await waitFor(() => peer.binds.length === 2, 'the new bind');

    const [result] = await gateway.submit([sms('after the unbind')]);
    expect(result).toHaveProperty('gatewayId');
  });

  it('reconnects when enquire_link goes unanswered', async () => {
    const { peer, gateway, logs } = await connectGateway({ query: { enquire_link_ms: 50 }, enquireLinkTimeoutMs: 200 });
    await gateway.submit([sms('hello')]);
    peer.answerEnquireLinks = false;

    await waitFor(() => peer.binds.length >= 2, 'a second bind');

    expect(logs.some((entry) => entry.message.includes('no enquire_link_resp'))).toBe(true);
    peer.answerEnquireLinks = true;
    const [result] = await gateway.submit([sms('after the reconnection')]);
    expect(result).toHaveProperty('gatewayId');
  });

  it('after a dropped connection returns what was acknowledged, leaves out what was in flight, and sends the rest on the new link', async () => {
    const { peer, gateway } = await connectGateway({ query: { window: 2 } });
    const batch = Array.from({ length: 6 }, (_, index) => sms(`message ${index + 1}`, `+44770090020${index + 1}`));
    peer.holdAfter(3);

    const pending = gateway.submit(batch);
    // With a window of 2, submits 4 and 5 are only sent once responses 1–3 have been read.
    await waitFor(() => peer.submits.length === 5, 'messages 4 and 5 in flight');
    peer.dropConnections();
    const results = await pending;

    const idOf = (text: string) => peer.accepted().find((submit) => submit.text === text)?.messageId;
    expect(results).toEqual([1, 2, 3, 6].map((n) => ({ clientRef: batch[n - 1]!.clientRef, gatewayId: idOf(`message ${n}`) })));
    expect(peer.binds).toHaveLength(2);

    const [after] = await gateway.submit([sms('a new submit')]);
    expect(after).toEqual({ clientRef: expect.any(String), gatewayId: idOf('a new submit') });
  });

  it('unbinds on close, and submit afterwards answers not sent at once', async () => {
    const { peer, gateway } = await connectGateway({ connectWaitMs: 60_000 });
    await gateway.submit([sms('hello')]);

    await gateway.close();

    expect(peer.unbinds).toBe(1);
    await expect(gateway.submit([sms('too late')])).resolves.toEqual([{ clientRef: expect.any(String), notSent: true }]); // would outlast the test timeout if it waited
    expect(peer.submits).toHaveLength(1);
  });
});
