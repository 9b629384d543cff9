import { describe, expect, it } from 'vitest';
import { connectGateway, sms, waitFor } from './smpp-gateway.harness';

const longGsm = `${'a'.repeat(200)} ${'b'.repeat(200)}`; // 3 parts

describe('SMPP gateway: receipts', () => {
  it('turns DELIVRD and UNDELIV receipts into delivered and failed, ignoring ENROUTE', async () => {
    const { peer, gateway, receipts } = await connectGateway();
    const [first, second] = await gateway.submit([sms('one', '+447700900001'), sms('two', '+447700900002')]);
    const firstId = (first as { gatewayId: string }).gatewayId;
    const secondId = (second as { gatewayId: string }).gatewayId;

    peer.sendReceipt(firstId, 'ENROUTE');
    peer.sendReceipt(firstId, 'DELIVRD');
    peer.sendReceipt(secondId, 'UNDELIV', { err: '001' });
    await waitFor(() => peer.deliverAcks === 3, 'deliver_sm_resp to every receipt');
    await waitFor(() => receipts.length === 2, 'two receipts');

    expect(receipts).toEqual([
      { gatewayId: firstId, status: 'delivered', reason: null, at: expect.any(Date) },
      { gatewayId: secondId, status: 'failed', reason: 'UNDELIV err:001', at: expect.any(Date) },
    ]);
  });

  it('reads a receipt without TLVs from its text, keeping the id as the SMSC wrote it', async () => {
    const { peer, gateway, receipts } = await connectGateway();
    const [result] = await gateway.submit([sms('one')]);
    peer.receiptTlvs = false;

    peer.sendReceipt((result as { gatewayId: string }).gatewayId, 'EXPIRED', { textId: '0012345' });
    await waitFor(() => receipts.length === 1, 'the receipt');

    expect(receipts[0]).toMatchObject({ gatewayId: '0012345', status: 'failed', reason: 'EXPIRED' });
  });

  it('folds the receipts of a 3-part message into one, named by the first part', async () => {
    const { peer, gateway, receipts } = await connectGateway();
    peer.autoReceipt = 'DELIVRD'; // each receipt follows its submit_sm_resp at once, often in the same read

    const [result] = await gateway.submit([sms(longGsm)]);
    const [sentinel] = await gateway.submit([sms('sentinel')]); // its receipt comes after the parts'
    await waitFor(() => receipts.length >= 2, 'the receipts');

    expect(peer.accepted()).toHaveLength(4);
    expect(receipts.map(({ gatewayId, status }) => ({ gatewayId, status }))).toEqual([
      { gatewayId: (result as { gatewayId: string }).gatewayId, status: 'delivered' },
      { gatewayId: (sentinel as { gatewayId: string }).gatewayId, status: 'delivered' },
    ]);
  });

  it('fails a multipart message when one part fails, once all parts are final', async () => {
    const { peer, gateway, receipts } = await connectGateway();
    const [, sentinel] = await gateway.submit([sms(longGsm), sms('sentinel')]);
    const [part1, part2, part3] = peer
      .accepted()
      .filter((part) => part.text !== 'sentinel')
      .map((part) => part.messageId!);
    const sentinelId = (sentinel as { gatewayId: string }).gatewayId;

    peer.sendReceipt(part1!, 'DELIVRD');
    peer.sendReceipt(part2!, 'UNDELIV', { err: '00B' });
    peer.sendReceipt(sentinelId, 'DELIVRD');
    await waitFor(() => receipts.length > 0, 'the sentinel receipt');
    expect(receipts.map((receipt) => receipt.gatewayId)).toEqual([sentinelId]); // receipts are handled in order: parts 1–2 settled nothing

    peer.sendReceipt(part3!, 'DELIVRD');
    await waitFor(() => receipts.length > 1, 'the message receipt');

    expect(receipts[1]).toEqual({ gatewayId: part1, status: 'failed', reason: 'UNDELIV err:00B', at: expect.any(Date) });
  });
});

describe('SMPP gateway: inbound messages', () => {
  it('passes on a single GSM message with the sender in +E.164', async () => {
    const { peer, inbound } = await connectGateway();
    await waitFor(() => peer.binds.some((bind) => bind.accepted), 'the bind');

    peer.sendMo({ from: '447700900123', to: '80001', body: 'STOP now {€}' });
    await waitFor(() => inbound.length === 1, 'the inbound message');

    expect(inbound[0]).toEqual({ from: '+447700900123', to: '80001', body: 'STOP now {€}', at: expect.any(Date), key: expect.stringMatching(/^smpp:/) });
    // The acknowledgement goes once the message is stored, so it may still be on its way to the peer.
    await waitFor(() => peer.deliverAcks === 1, 'the acknowledgement');
    expect(peer.deliverAcks).toBe(1);
  });

  it('reassembles UCS-2 parts that arrive out of order, an emoji split between two parts', async () => {
    const { peer, inbound } = await connectGateway();
    await waitFor(() => peer.binds.some((bind) => bind.accepted), 'the bind');
    const body = 'При👋вет мир'; // 3 parts of 4 code units: the 👋 pair straddles parts 1 and 2

    peer.sendMo({ from: '447700900123', to: '80001', body, coding: 'ucs2', parts: 3, reference16: true, reverse: true });
    await waitFor(() => peer.deliverAcks === 3, 'all parts answered');
    await waitFor(() => inbound.length > 0, 'the inbound message');

    expect(inbound).toEqual([{ from: '+447700900123', to: '80001', body, at: expect.any(Date), key: expect.stringMatching(/^smpp:/) }]);
  });

  it('reassembles GSM parts with an 8-bit reference, and keeps a national sender as sent', async () => {
    const { peer, inbound } = await connectGateway();
    await waitFor(() => peer.binds.some((bind) => bind.accepted), 'the bind');
    const body = `JOIN ${'x'.repeat(150)} end`;

    peer.sendMo({ from: '07700900123', fromTon: 2, to: '80001', body, parts: 2 });
    await waitFor(() => inbound.length > 0, 'the inbound message');

    expect(inbound).toEqual([{ from: '07700900123', to: '80001', body, at: expect.any(Date), key: expect.stringMatching(/^smpp:/) }]);
  });

  it('drops an incomplete concatenated message after the timeout', async () => {
    const { peer, inbound, logs } = await connectGateway({ inboundPartsTimeoutMs: 100 });
    await waitFor(() => peer.binds.some((bind) => bind.accepted), 'the bind');

    peer.sendMo({ from: '447700900123', to: '80001', body: 'only part one of two arrives', parts: 2, only: [1] });
    await waitFor(() => logs.some((entry) => entry.message.includes('incomplete concatenated')), 'the drop');

    expect(inbound).toEqual([]);
  });
});
