import { describe, expect, it } from 'vitest';
import { segmentsOf } from '../../../../shared/sms';
import { connectGateway, sms } from './smpp-gateway.harness';

const ESC = 0x1b;

describe('SMPP gateway: what the carrier receives', () => {
  it('sends GSM text byte for byte, extension characters escaped, data_coding 0, receipts requested', async () => {
    const { peer, gateway } = await connectGateway();
    const body = 'Hi @£$ €[]{}~^\\|';

    const results = await gateway.submit([sms(body, '+447700900123', 'Herald')]);

    const [submit] = peer.accepted();
    expect(results).toEqual([{ clientRef: expect.any(String), gatewayId: submit!.messageId }]);
    expect(submit!.dataCoding).toBe(0);
    expect([...submit!.shortMessage]).toEqual([
      ...Buffer.from('Hi ', 'ascii'),
      0x00,
      0x01,
      0x02,
      0x20, // @ £ $ and the space
      ...[0x65, 0x3c, 0x3e, 0x28, 0x29, 0x3d, 0x14, 0x2f, 0x40].flatMap((code) => [ESC, code]), // € [ ] { } ~ ^ \ |
    ]);
    expect(submit!.text).toBe(body); // the smpp library's own GSM table reads it back
    expect(submit).toMatchObject({ esmClass: 0, registeredDelivery: 1, destinationAddr: '447700900123', destTon: 1, destNpi: 1 });
    expect(submit).toMatchObject({ sourceAddr: 'Herald', sourceTon: 5, sourceNpi: 0 });
  });

  it('numbers the originator by its kind: international, short code, alphanumeric', async () => {
    const { peer, gateway } = await connectGateway();

    await gateway.submit([sms('a', '+447700900001', '+447700900999'), sms('b', '+447700900002', '80001')]);

    const bySource = Object.fromEntries(peer.accepted().map((submit) => [submit.text, [submit.sourceAddr, submit.sourceTon, submit.sourceNpi]]));
    expect(bySource).toEqual({ a: ['447700900999', 1, 1], b: ['80001', 3, 0] });
  });

  it('sends other text as UCS-2 (data_coding 8), emoji as surrogate pairs', async () => {
    const { peer, gateway } = await connectGateway();
    const body = 'Привет 👋 — до встречи';

    await gateway.submit([sms(body)]);

    const [submit] = peer.accepted();
    expect(submit!.dataCoding).toBe(8);
    expect(submit!.shortMessage).toEqual(Buffer.from(body, 'utf16le').swap16());
    expect(submit!.text).toBe(body);
  });

  it('sends a long GSM message as 3 parts with one concatenation header, split where the counter splits it', async () => {
    const { peer, gateway } = await connectGateway();
    // The € would straddle the end of part 1 (septets 153–154): it must move to part 2 whole.
    const body = `${'a'.repeat(152)}€${'b'.repeat(160)}`;
    expect(segmentsOf(body)).toHaveLength(3);

    const [result] = await gateway.submit([sms(body)]);

    const parts = peer.accepted();
    expect(parts).toHaveLength(3);
    const reference = parts[0]!.concatenation!.reference;
    expect(parts.map((part) => part.concatenation)).toEqual([1, 2, 3].map((sequence) => ({ reference, total: 3, sequence })));
    expect(parts.map((part) => [...part.udh!])).toEqual([1, 2, 3].map((sequence) => [0x05, 0x00, 0x03, reference, 3, sequence]));
    expect(parts.every((part) => part.esmClass === 0x40 && part.dataCoding === 0)).toBe(true);
    expect(parts.map((part) => part.text)).toEqual(segmentsOf(body));
    expect(parts.map((part) => part.text).join('')).toBe(body);
    expect(result).toEqual({ clientRef: expect.any(String), gatewayId: parts[0]!.messageId });
  });

  it('never splits an emoji between two UCS-2 parts', async () => {
    const { peer, gateway } = await connectGateway();
    const body = `${'ж'.repeat(66)}👋${'ж'.repeat(60)}`; // the pair would take code units 67–68

    await gateway.submit([sms(body)]);

    const parts = peer.accepted();
    expect(parts.map((part) => part.octets.length)).toEqual([132, 124]);
    expect(parts.map((part) => part.text)).toEqual([`${'ж'.repeat(66)}`, `👋${'ж'.repeat(60)}`]);
    expect(parts.every((part) => part.dataCoding === 8 && part.concatenation?.total === 2)).toBe(true);
  });

  it('sends a long message as one submit_sm with message_payload when long=payload', async () => {
    const { peer, gateway } = await connectGateway({ query: { long: 'payload' } });
    const body = `Unicode ✓ ${'x'.repeat(100)}`;

    await gateway.submit([sms(body)]);

    const [submit] = peer.accepted();
    expect(peer.submits).toHaveLength(1);
    expect(submit).toMatchObject({ esmClass: 0, dataCoding: 8, udh: null, text: body });
    expect(submit!.shortMessage).toHaveLength(0);
    expect(submit!.payload).toEqual(Buffer.from(body, 'utf16le').swap16());
  });

  it('never has more than `window` submit_sm awaiting their response', async () => {
    const { peer, gateway } = await connectGateway({ query: { window: 3 } });
    peer.responseDelayMs = 40;
    const batch = Array.from({ length: 12 }, (_, index) => sms(`message ${index}`, `+4477009000${String(index).padStart(2, '0')}`));

    const results = await gateway.submit(batch);

    expect(results.map((result) => result.clientRef)).toEqual(batch.map((message) => message.clientRef));
    expect(peer.accepted()).toHaveLength(12);
    expect(peer.maxOutstanding).toBeLessThanOrEqual(3);
    expect(peer.maxOutstanding).toBeGreaterThan(1); // it does pipeline
  });

  it('backs off when throttled and still sends every message exactly once', async () => {
    const { peer, gateway, logs } = await connectGateway();
    peer.throttleNext(3);
    const batch = Array.from({ length: 5 }, (_, index) => sms(`message ${index}`, `+44770090010${index}`));

    const results = await gateway.submit(batch);

    expect(results.every((result) => 'gatewayId' in result)).toBe(true);
    expect(results).toHaveLength(5);
    expect(
      peer
        .accepted()
        .map((submit) => submit.destinationAddr)
        .sort(),
    ).toEqual(batch.map((message) => message.to.slice(1)).sort());
    expect(peer.submits.filter((submit) => submit.status === 0x58)).toHaveLength(3);
    expect(logs.some((entry) => entry.message.includes('ESME_RTHROTTLED'))).toBe(true);
  });

  it('reports a permanent refusal as rejected with the SMPP status, and sends it only once', async () => {
    const { peer, gateway } = await connectGateway();
    peer.rejectTo('447700900999', 0x0b);
    const good = sms('hello', '+447700900001');
    const bad = sms('hello', '+447700900999');

    const results = await gateway.submit([good, bad]);

    expect(results).toEqual([
      { clientRef: good.clientRef, gatewayId: peer.accepted()[0]!.messageId },
      { clientRef: bad.clientRef, rejected: 'SMPP 0x0000000B ESME_RINVDSTADR' },
    ]);
    expect(peer.submits.filter((submit) => submit.destinationAddr === '447700900999')).toHaveLength(1);
  });
});
