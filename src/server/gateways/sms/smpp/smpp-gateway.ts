import type { Pdu } from 'smpp';
import type { InboundSms, OutgoingSms, Receipt, SmsGateway, SubmitResult } from '../sms-gateway';
import { createConcatenatedInbound } from './concatenated-inbound';
import { deliverSmKind, parseReceipt } from './delivery-receipt';
import { createMultipartReceipts } from './multipart-receipts';
import { inboundSender } from './smpp-addresses';
import { openSmppLink } from './smpp-link';
import type { LinkAnswer, SmppLog } from './smpp-link';
import { useRawMessageFields } from './smpp-raw-fields';
import { describeStatus, STATUS } from './smpp-status';
import { submitSmFor } from './smpp-submission';
import type { SubmitSmFields } from './smpp-submission';
import { decodeText } from './smpp-text';
import type { SmppUrlOptions } from './smpp-url';
import { splitUserDataHeader } from './udh';
import type { Concatenation } from './udh';
import { createThrottleBackoff, createWindow } from './submit-window';

export { parseSmppUrl } from './smpp-url';
export type { SmppUrlOptions } from './smpp-url';
export type { SmppLog } from './smpp-link';

/** Everything `parseSmppUrl` gives, plus timings (defaults suit a real SMSC; tests shorten them). */
export type SmppGatewayOptions = SmppUrlOptions & {
  /** How long submit waits for a link that is down before leaving the messages it could not send out. Default 10 s. */
  connectWaitMs?: number;
  /** First pause before reconnecting; doubles per failed attempt up to reconnectMaxMs. Defaults 250 ms, 30 s. */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Pause after ESME_RTHROTTLED / ESME_RMSGQFUL; doubles up to throttleMaxMs. Defaults 100 ms, 5 s. */
  throttleMinMs?: number;
  throttleMaxMs?: number;
  /** A message throttled for longer than this is left out of the results (the engine offers it again). Default 60 s. */
  throttleGiveUpMs?: number;
  /** An unanswered enquire_link after this long means the link is dead. Default 10 s. */
  enquireLinkTimeoutMs?: number;
  /** How long bind_transceiver and submit_sm wait for their response. Default 30 s. */
  responseTimeoutMs?: number;
  /** How long close() waits for unbind_resp. Default 2 s. */
  unbindTimeoutMs?: number;
  /** How long the parts of a concatenated inbound message are kept waiting for the rest. Default 2 min. */
  inboundPartsTimeoutMs?: number;
  /** Never given the password. Default: the console. */
  log?: SmppLog;
};

const ESM_CLASS_UDHI = 0x40;

type PartOutcome = { kind: 'accepted'; id: string } | { kind: 'rejected'; reason: string } | { kind: 'unknown' };
const UNKNOWN: PartOutcome = { kind: 'unknown' };

/**
 * The SmsGateway port over SMPP 3.4: one transceiver bind that submits with a window, backs off
 * when throttled, and turns deliver_sm into receipts (parts of a long message folded into one) and
 * inbound messages (concatenated parts reassembled).
 */
export function createSmppGateway(options: SmppGatewayOptions): SmsGateway {
  useRawMessageFields();
  const log = options.log ?? ((level, message) => console[level](message));
  const connectWaitMs = options.connectWaitMs ?? 10_000;
  const throttleGiveUpMs = options.throttleGiveUpMs ?? 60_000;
  const long = options.long ?? 'udh';
  const windowSize = options.window ?? 10;
  if (!(Number.isInteger(windowSize) && windowSize >= 1)) throw new Error(`SMPP window must be a whole number of at least 1 (got ${windowSize})`);

  const receiptListeners: Array<(receipt: Receipt) => void> = [];
  const inboundListeners: Array<(message: InboundSms) => void> = [];
  const multipart = createMultipartReceipts();
  const inboundParts = createConcatenatedInbound({
    timeoutMs: options.inboundPartsTimeoutMs ?? 120_000,
    onDropped: (received, total) => log('warn', `SMPP: dropped an incomplete concatenated inbound message (${received} of ${total} parts arrived)`),
  });
  const window = createWindow(windowSize);
  const backoff = createThrottleBackoff({ minMs: options.throttleMinMs ?? 100, maxMs: options.throttleMaxMs ?? 5_000 });
  let closed = false;

  const emit = <T>(what: 'receipt' | 'inbound', listeners: Array<(value: T) => unknown>, value: T) => {
    for (const listener of listeners) {
      try {
        void Promise.resolve(listener(value)).catch((error: Error) => log('error', `SMPP: a ${what} was not stored: ${error.message}`));
      } catch (error) {
        log('error', `SMPP: a ${what} listener failed: ${(error as Error).message}`);
      }
    }
  };

  const link = openSmppLink({
    host: options.host,
    port: options.port,
    systemId: options.systemId,
    password: options.password,
    systemType: options.systemType ?? '',
    enquireLinkMs: options.enquireLinkMs ?? 30_000,
    enquireLinkTimeoutMs: options.enquireLinkTimeoutMs ?? 10_000,
    responseTimeoutMs: options.responseTimeoutMs ?? 30_000,
    reconnectMinMs: options.reconnectMinMs ?? 250,
    reconnectMaxMs: options.reconnectMaxMs ?? 30_000,
    unbindTimeoutMs: options.unbindTimeoutMs ?? 2_000,
    log,
    onDeliverSm(pdu, answer) {
      answer();
      // Handled after the submit_sm_resp read with it has been processed (promise continuations run
      // first), so a receipt that arrives in the same read as its part's response finds the part.
      setImmediate(() => deliverSm(pdu));
    },
  });

  function deliverSm(pdu: Pdu): void {
    try {
      readDeliverSm(pdu);
    } catch (error) {
      // Runs outside any caller: an odd PDU must cost one message, not the process.
      log('error', `SMPP: a deliver_sm could not be read: ${(error as Error).message}`);
    }
  }

  function readDeliverSm(pdu: Pdu): void {
    const esmClass = numberField(pdu.esm_class);
    const dataCoding = numberField(pdu.data_coding);
    const payload = pdu.message_payload;
    const octets = Buffer.isBuffer(payload) && payload.length > 0 ? payload : bufferField(pdu.short_message);
    const kind = deliverSmKind(esmClass);
    if (kind === 'receipt') receipt(pdu, decodeText(octets, dataCoding));
    if (kind === 'mobile-originated') inbound(pdu, esmClass, dataCoding, octets);
  }

  function receipt(pdu: Pdu, text: string): void {
    const parsed = parseReceipt({ text, receiptedMessageId: pdu.receipted_message_id, messageState: pdu.message_state });
    if (!parsed) return log('warn', `SMPP: a delivery receipt names no message and was ignored: ${JSON.stringify(text)}`);
    if (!parsed.outcome) return; // ENROUTE, ACCEPTD: not final yet
    const settled = multipart.settle(parsed.messageId, parsed.outcome);
    if (!settled) return;
    const { outcome } = settled;
    emit('receipt', receiptListeners, { gatewayId: settled.gatewayId, status: outcome.status, reason: outcome.status === 'failed' ? outcome.reason : null, at: new Date() });
  }

  function inbound(pdu: Pdu, esmClass: number, dataCoding: number, octets: Buffer): void {
    const from = inboundSender(numberField(pdu.source_addr_ton), stringField(pdu.source_addr));
    const to = stringField(pdu.destination_addr);
    const split = esmClass & ESM_CLASS_UDHI ? splitUserDataHeader(octets) : { concatenation: null, text: octets };
    const concatenation = split.concatenation ?? sarConcatenation(pdu);
    let text: Buffer | null = split.text;
    if (concatenation && concatenation.total > 1) {
      const key = `${from}>${to}#${concatenation.reference}/${concatenation.total}`;
      text = inboundParts.add(key, concatenation.sequence, concatenation.total, split.text);
    }
    if (text) emit('inbound', inboundListeners, { from, to, body: decodeText(text, dataCoding), at: new Date() });
  }

  /** One submit_sm until the SMSC accepts or refuses it for good, or its fate cannot be known. */
  async function submitPart(fields: SubmitSmFields): Promise<PartOutcome> {
    let throttledSince: number | undefined;
    for (;;) {
      // Waiting for the link comes before the window, so a whole batch waits connectWaitMs once, not per window-full.
      if (closed || !(await link.waitUntilBound(connectWaitMs))) return UNKNOWN;
      await window.acquire();
      let answer: LinkAnswer;
      try {
        await backoff.wait();
        answer = closed ? { kind: 'not-sent' } : await link.request('submit_sm', fields);
      } finally {
        window.release();
      }
      if (answer.kind === 'not-sent') continue; // the link went down meanwhile: wait for the next one
      if (answer.kind === 'lost') return UNKNOWN;
      const status = answer.pdu.command_status;
      if (status === STATUS.ok) {
        backoff.accepted();
        return { kind: 'accepted', id: stringField(answer.pdu.message_id).trim() };
      }
      if (status === STATUS.throttled || status === STATUS.messageQueueFull) {
        throttledSince ??= Date.now();
        if (Date.now() - throttledSince > throttleGiveUpMs) return UNKNOWN;
        const pause = backoff.throttled();
        if (pause > 0) log('warn', `SMPP: ${describeStatus(status)}; pausing submissions for ${pause} ms`);
        continue;
      }
      if (status === STATUS.invalidBindStatus) {
        // The SMSC thinks we are not bound: nothing was accepted, rebind and let the engine offer it again.
        link.restart(`submit_sm answered ${describeStatus(status)}; rebinding`);
        return UNKNOWN;
      }
      return { kind: 'rejected', reason: describeStatus(status) };
    }
  }

  /** Sends every part of one message in order; its gateway id is the first part's message_id. */
  async function submitMessage(message: OutgoingSms): Promise<SubmitResult | null> {
    const parts = submitSmFor(message, long);
    const ids: string[] = [];
    for (const fields of parts) {
      const outcome = await submitPart(fields);
      if (outcome.kind === 'accepted') {
        if (parts.length > 1 && ids[0] === undefined) multipart.expect(outcome.id, parts.length);
        else if (ids[0] !== undefined) multipart.addPart(ids[0], outcome.id);
        ids.push(outcome.id);
        continue;
      }
      if (ids[0] !== undefined) multipart.forget(ids[0]);
      return outcome.kind === 'rejected' ? { clientRef: message.clientRef, rejected: outcome.reason } : null;
    }
    return { clientRef: message.clientRef, gatewayId: ids[0]! };
  }

  return {
    // What is submitted is recorded a window at a time, so a crash repeats at most that many per lane.
    batchLimit: windowSize,
    async submit(batch: OutgoingSms[]): Promise<SubmitResult[]> {
      if (closed) return [];
      const results = await Promise.all(batch.map(submitMessage));
      return results.filter((result) => result !== null);
    },
    onReceipt: (listener) => void receiptListeners.push(listener),
    onInbound: (listener) => void inboundListeners.push(listener),
    async close() {
      if (closed) return;
      closed = true;
      backoff.stop();
      inboundParts.close();
      await link.close();
    },
  };
}

/** Concatenation told by the sar_* TLVs, which some SMSCs use instead of a UDH. */
function sarConcatenation(pdu: Pdu): Concatenation | null {
  const reference = pdu.sar_msg_ref_num;
  const total = pdu.sar_total_segments;
  const sequence = pdu.sar_segment_seqnum;
  if (typeof reference !== 'number' || typeof total !== 'number' || typeof sequence !== 'number') return null;
  return { reference, total, sequence };
}

const numberField = (value: unknown): number => (typeof value === 'number' ? value : 0);
const stringField = (value: unknown): string => (typeof value === 'string' ? value : '');
const bufferField = (value: unknown): Buffer => (Buffer.isBuffer(value) ? value : Buffer.alloc(0));
