import type { Pdu } from 'smpp';
import { createHash } from 'node:crypto';
import type { DurableListener, InboundSms, OutgoingSms, Receipt, SmsGateway, SubmitResult } from '../sms-gateway';
import { createConcatenatedInbound } from './concatenated-inbound';
import { deliverSmKind, parseReceipt } from './delivery-receipt';
import type { ReceiptOutcome } from './delivery-receipt';
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
  /**
   * How long the receipts of a long message's first parts wait (unanswered) for the last part's;
   * after that the message is settled from the parts that came. Default 60 s.
   */
  receiptPartsHoldMs?: number;
  /** Never given the password. Default: the console. */
  log?: SmppLog;
};

const ESM_CLASS_UDHI = 0x40;

type Answer = (fields?: Record<string, unknown>) => void;
/** A deliver_sm answered later, with the message it is part of. */
const HELD = 'held';

type PartOutcome = { kind: 'accepted'; id: string } | { kind: 'rejected'; reason: string } | { kind: 'not-sent' } | { kind: 'in-doubt' };
const NOT_SENT: PartOutcome = { kind: 'not-sent' };
const IN_DOUBT: PartOutcome = { kind: 'in-doubt' };

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

  const receiptListeners: Array<DurableListener<Receipt[]>> = [];
  const inboundListeners: Array<DurableListener<InboundSms>> = [];
  const multipart = createMultipartReceipts();
  const inboundParts = createConcatenatedInbound({
    timeoutMs: options.inboundPartsTimeoutMs ?? 120_000,
    // Its parts are acknowledged then: delivered again, they would be dropped again.
    onDropped: (received, total) => log('warn', `SMPP: dropped an incomplete concatenated inbound message (${received} of ${total} parts arrived)`),
  });
  const window = createWindow(windowSize);
  const backoff = createThrottleBackoff({ minMs: options.throttleMinMs ?? 100, maxMs: options.throttleMaxMs ?? 5_000 });
  let closed = false;

  /** Hands a receipt or message to every listener; resolves once all have stored it, rejects if one could not. */
  const emit = async <T>(listeners: Array<DurableListener<T>>, value: T): Promise<void> => {
    await Promise.all(listeners.map((listener) => listener(value)));
  };

  /** deliver_sm of multipart receipts whose answer waits until the message's receipt is stored. */
  const heldParts = new Map<string, { answers: Answer[]; timer: NodeJS.Timeout }>();
  const partsHoldMs = options.receiptPartsHoldMs ?? 60_000;

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
      // Handled after the submit_sm_resp read with it has been processed (promise continuations run
      // first), so a receipt that arrives in the same read as its part's response finds the part.
      setImmediate(() => deliverSm(pdu, answer));
    },
  });

  /**
   * Answers a deliver_sm only once what it carries is stored (or needs no storing): a store that
   * fails answers ESME_RX_T_APPN, so the SMSC delivers it again; nothing is acknowledged and lost.
   */
  function deliverSm(pdu: Pdu, answer: Answer): void {
    let stored: Promise<void> | typeof HELD;
    try {
      stored = readDeliverSm(pdu, answer);
    } catch (error) {
      // An odd PDU must cost one message, not the process; delivering it again would not help.
      log('error', `SMPP: a deliver_sm could not be read and was acknowledged without it: ${(error as Error).message}`);
      return answer();
    }
    if (stored === HELD) return;
    stored.then(
      () => answer(),
      (error: Error) => {
        log('error', `SMPP: a deliver_sm was not stored (${error.message}); answered ESME_RX_T_APPN so the SMSC delivers it again`);
        answer({ command_status: STATUS.temporaryAppError });
      },
    );
  }

  /** Resolves when the deliver_sm can be acknowledged. A part of something larger may be answered elsewhere (`held`). */
  function readDeliverSm(pdu: Pdu, answer: Answer): Promise<void> | typeof HELD {
    const esmClass = numberField(pdu.esm_class);
    const dataCoding = numberField(pdu.data_coding);
    const payload = pdu.message_payload;
    const octets = Buffer.isBuffer(payload) && payload.length > 0 ? payload : bufferField(pdu.short_message);
    const kind = deliverSmKind(esmClass);
    if (kind === 'receipt') return receipt(pdu, decodeText(octets, dataCoding), answer);
    if (kind === 'mobile-originated') return inbound(pdu, esmClass, dataCoding, octets, answer);
    return Promise.resolve();
  }

  function receipt(pdu: Pdu, text: string, answer: Answer): Promise<void> | typeof HELD {
    const parsed = parseReceipt({ text, receiptedMessageId: pdu.receipted_message_id, messageState: pdu.message_state });
    if (!parsed) {
      log('warn', `SMPP: a delivery receipt names no message and was ignored: ${JSON.stringify(text)}`);
      return Promise.resolve();
    }
    if (!parsed.outcome) return Promise.resolve(); // ENROUTE, ACCEPTD: not final yet
    const settled = multipart.settle(parsed.messageId, parsed.outcome);
    if ('waitingFor' in settled) {
      holdPart(settled.waitingFor, answer);
      return HELD;
    }
    return storeReceipt(settled.gatewayId, settled.outcome, heldAnswers(settled.gatewayId));
  }

  /** Stores a message's receipt, then answers the parts that waited for it the same way as this one. */
  function storeReceipt(gatewayId: string, outcome: ReceiptOutcome, parts: Answer[]): Promise<void> {
    const stored = emit(receiptListeners, [{ gatewayId, status: outcome.status, reason: outcome.status === 'failed' ? outcome.reason : null, at: new Date() }]);
    stored.then(
      () => parts.forEach((answer) => answer()),
      () => parts.forEach((answer) => answer({ command_status: STATUS.temporaryAppError })),
    );
    return stored;
  }

  /** A part's receipt is answered with the message's: when the rest arrive, or after partsHoldMs with what came. */
  function holdPart(firstId: string, answer: Answer): void {
    const held = heldParts.get(firstId);
    if (held) return void held.answers.push(answer);
    const timer = setTimeout(() => {
      const answers = heldAnswers(firstId);
      const settled = multipart.settleIncomplete(firstId);
      if (!settled) return answers.forEach((waiting) => waiting());
      log('warn', `SMPP: not every part of message ${firstId} had a receipt after ${partsHoldMs} ms; settled from the parts that did`);
      storeReceipt(settled.gatewayId, settled.outcome, answers).catch(() => undefined);
    }, partsHoldMs);
    timer.unref();
    heldParts.set(firstId, { answers: [answer], timer });
  }

  function heldAnswers(firstId: string): Answer[] {
    const held = heldParts.get(firstId);
    if (!held) return [];
    clearTimeout(held.timer);
    heldParts.delete(firstId);
    return held.answers;
  }

  function inbound(pdu: Pdu, esmClass: number, dataCoding: number, octets: Buffer, answer: Answer): Promise<void> | typeof HELD {
    const from = inboundSender(numberField(pdu.source_addr_ton), stringField(pdu.source_addr));
    const to = stringField(pdu.destination_addr);
    const split = esmClass & ESM_CLASS_UDHI ? splitUserDataHeader(octets) : { concatenation: null, text: octets };
    const concatenation = split.concatenation ?? sarConcatenation(pdu);
    const identity = [from, to, String(dataCoding)];
    if (!concatenation || concatenation.total <= 1) {
      return emit(inboundListeners, { from, to, body: decodeText(split.text, dataCoding), at: new Date(), key: deliveryKey(identity, [split.text]) });
    }
    // Every part is answered once the whole message is stored; a crash before that has the SMSC deliver them all again.
    const key = `${from}>${to}#${concatenation.reference}/${concatenation.total}`;
    const whole = inboundParts.add(key, concatenation.sequence, concatenation.total, split.text, answer);
    if (!whole) return HELD;
    const stored = emit(inboundListeners, {
      from,
      to,
      body: decodeText(Buffer.concat(whole.parts), dataCoding),
      at: new Date(),
      key: deliveryKey([...identity, key], whole.parts),
    });
    stored.then(
      () => whole.waiting.forEach((waiting) => waiting()),
      () => whole.waiting.forEach((waiting) => waiting({ command_status: STATUS.temporaryAppError })),
    );
    return stored;
  }

  /** One submit_sm until the SMSC accepts or refuses it for good, or it certainly was not sent, or its fate cannot be known. */
  async function submitPart(fields: SubmitSmFields, signal: AbortSignal | undefined): Promise<PartOutcome> {
    let throttledSince: number | undefined;
    for (;;) {
      // Waiting for the link comes before the window, so a whole batch waits connectWaitMs once, not per window-full.
      if (closed || signal?.aborted || !(await link.waitUntilBound(connectWaitMs))) return NOT_SENT;
      await window.acquire();
      let answer: LinkAnswer;
      try {
        await backoff.wait();
        answer = closed || signal?.aborted ? { kind: 'not-sent' } : await link.request('submit_sm', fields);
      } finally {
        window.release();
      }
      if (answer.kind === 'not-sent') continue; // never written: wait for the next link (or give up above)
      if (answer.kind === 'lost') return IN_DOUBT; // written, and the answer never came
      const status = answer.pdu.command_status;
      if (status === STATUS.ok) {
        backoff.accepted();
        return { kind: 'accepted', id: stringField(answer.pdu.message_id).trim() };
      }
      if (status === STATUS.throttled || status === STATUS.messageQueueFull) {
        throttledSince ??= Date.now();
        if (Date.now() - throttledSince > throttleGiveUpMs) return NOT_SENT; // refused every time: never taken
        const pause = backoff.throttled();
        if (pause > 0) log('warn', `SMPP: ${describeStatus(status)}; pausing submissions for ${pause} ms`);
        continue;
      }
      if (status === STATUS.invalidBindStatus) {
        // The SMSC thinks we are not bound: it took nothing; rebind and let the engine offer it again.
        link.restart(`submit_sm answered ${describeStatus(status)}; rebinding`);
        return NOT_SENT;
      }
      return { kind: 'rejected', reason: describeStatus(status) };
    }
  }

  /**
   * Sends every part of one message in order; its gateway id is the first part's message_id. A
   * message none of whose parts was taken is `notSent` (the engine offers it again); one whose first
   * parts went out and whose next one failed is in doubt (part of it may reach the handset).
   */
  async function submitMessage(message: OutgoingSms, signal: AbortSignal | undefined): Promise<SubmitResult | null> {
    const parts = submitSmFor(message, long);
    const ids: string[] = [];
    for (const fields of parts) {
      const outcome = await submitPart(fields, signal);
      if (outcome.kind === 'accepted') {
        if (parts.length > 1 && ids[0] === undefined) multipart.expect(outcome.id, parts.length);
        else if (ids[0] !== undefined) multipart.addPart(ids[0], outcome.id);
        ids.push(outcome.id);
        continue;
      }
      if (ids[0] !== undefined) {
        multipart.forget(ids[0]);
        return null;
      }
      if (outcome.kind === 'rejected') return { clientRef: message.clientRef, rejected: outcome.reason };
      return outcome.kind === 'not-sent' ? { clientRef: message.clientRef, notSent: true } : null;
    }
    return { clientRef: message.clientRef, gatewayId: ids[0]! };
  }

  return {
    // What is submitted is recorded a window at a time, so a crash repeats at most that many per lane.
    batchLimit: windowSize,
    connected: () => !closed && link.isBound(),
    async submit(batch: OutgoingSms[], submitOptions?: { signal?: AbortSignal }): Promise<SubmitResult[]> {
      const results = await Promise.all(batch.map((message) => submitMessage(message, submitOptions?.signal)));
      return results.filter((result) => result !== null);
    },
    onReceipts: (listener) => void receiptListeners.push(listener),
    onInbound: (listener) => void inboundListeners.push(listener),
    async close() {
      if (closed) return;
      closed = true;
      backoff.stop();
      inboundParts.close();
      for (const held of heldParts.values()) clearTimeout(held.timer);
      heldParts.clear();
      await link.close();
    },
  };
}

/**
 * Names one mobile-originated message as the SMSC delivered it (addresses, coding, octets, and for a
 * long one its reference): the same when the SMSC delivers it again after an unanswered deliver_sm,
 * so the inbound store keeps it once. Not the sequence_number, which changes on a new bind.
 */
function deliveryKey(identity: string[], octets: Buffer[]): string {
  const hash = createHash('sha256');
  for (const field of identity) hash.update(`${field}\u0000`);
  for (const part of octets) hash.update(part);
  return `smpp:${hash.digest('base64url')}`;
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
