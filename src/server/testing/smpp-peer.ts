import type { AddressInfo } from 'node:net';
import smpp from 'smpp';
import type { Pdu, Server, Session } from 'smpp';
import { useRawMessageFields } from '../gateways/sms/smpp/smpp-raw-fields';

/** One submit_sm as the carrier received it, decoded independently of Herald's encoder. */
export type PeerSubmit = {
  sourceAddr: string;
  sourceTon: number;
  sourceNpi: number;
  destinationAddr: string;
  destTon: number;
  destNpi: number;
  esmClass: number;
  dataCoding: number;
  registeredDelivery: number;
  /** short_message exactly as on the wire, header included. */
  shortMessage: Buffer;
  /** The user data header (UDHL first) when esm_class has the UDH indicator. */
  udh: Buffer | null;
  concatenation: { reference: number; total: number; sequence: number } | null;
  /** The message_payload TLV, if sent. */
  payload: Buffer | null;
  /** The text octets: short_message after the UDH, or the payload. */
  octets: Buffer;
  /** The text decoded per data_coding (GSM with the smpp library's own table, a check on Herald's). */
  text: string;
  /** TLV names present, with their values. */
  tlvs: Record<string, unknown>;
  /** Command status answered; null while unanswered (held, or lost in a drop). */
  status: number | null;
  /** The message id answered when accepted. */
  messageId: string | null;
  /** When the peer read it (Date.now()). */
  receivedAt: number;
};

export type MobileOriginated = {
  from: string;
  /** 1 (international) by default. */
  fromTon?: number;
  to: string;
  body: string;
  coding?: 'gsm' | 'ucs2';
  /** Sent as this many UDH-concatenated parts (octets split evenly). */
  parts?: number;
  /** 16-bit reference IE (0x08) instead of 8-bit (0x00). */
  reference16?: boolean;
  /** Send the parts last first. */
  reverse?: boolean;
  /** Send only the parts with these sequence numbers (from 1), e.g. to leave a message incomplete. */
  only?: number[];
};

const MESSAGE_STATES: Record<string, number> = { ENROUTE: 1, DELIVRD: 2, EXPIRED: 3, DELETED: 4, UNDELIV: 5, ACCEPTD: 6, UNKNOWN: 7, REJECTD: 8 };
const ESM_CLASS_UDHI = 0x40;

/**
 * A carrier's SMSC on 127.0.0.1 for tests: a real SMPP server (the smpp library) that takes one
 * transceiver bind per connection, answers and records submit_sm, sends receipts and mobile-originated
 * messages, and misbehaves on request (throttling, refusals, silence, dropped connections).
 */
export class SmppPeer {
  readonly binds: Array<{ systemId: string; password: string; systemType: string; interfaceVersion: number; accepted: boolean }> = [];
  readonly submits: PeerSubmit[] = [];
  enquireLinks = 0;
  unbinds = 0;
  /** deliver_sm_resp with status 0 received for the receipts and inbound messages this peer sent. */
  deliverAcks = 0;
  /** The command_status of every deliver_sm_resp received, in order (an error makes the peer deliver again). */
  readonly deliverResponses: number[] = [];
  /**
   * As an SMSC does, a deliver_sm answered with an error is sent again after `redeliverMs`, and one
   * left unanswered when its connection closed is sent again on the next bind. False: never again.
   */
  redeliver = true;
  redeliverMs = 100;
  /** Most submit_sm ever awaiting their response at once, over all connections. */
  maxOutstanding = 0;
  /** Milliseconds before each submit_sm is answered: a fixed delay, or a random one between min and max. */
  responseDelayMs: number | { min: number; max: number } = 0;
  /** A share (0..1) of submit_sm answered after `slowDelayMs` instead of `responseDelayMs`: a carrier's occasional slow answer. */
  slowShare = 0;
  slowDelayMs: number | { min: number; max: number } = 0;
  /** Stat of the receipt sent automatically after each accepted submit_sm; null sends none. */
  autoReceipt: string | null = null;
  /** Include receipted_message_id and message_state in receipts (else the text alone names them). */
  receiptTlvs = true;
  answerEnquireLinks = true;

  private outstanding = 0;
  private nextId = 0x1a2b00;
  private throttleRemaining = 0;
  private holdAfterRemaining: number | null = null;
  private readonly rejections = new Map<string, number>();
  private readonly bound = new Set<Session>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** deliver_sm sent and not yet acknowledged, with the connection they went out on. */
  private readonly undelivered = new Map<Record<string, unknown>, Session | null>();

  private constructor(
    private readonly server: Server,
    readonly systemId: string,
    readonly password: string,
  ) {}

  /** A peer on a free port, or on `port` (a carrier back on its address after an outage). */
  static async start(options: { systemId?: string; password?: string; port?: number } = {}): Promise<SmppPeer> {
    useRawMessageFields();
    const server = smpp.createServer((session) => peer.accept(session));
    const peer = new SmppPeer(server, options.systemId ?? 'herald', options.password ?? 'secret');
    await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
    return peer;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** `smpp://` URL of this peer with its credentials (or others), plus query parameters. */
  url(query: Record<string, string | number> = {}, credentials = { systemId: this.systemId, password: this.password }): string {
    const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)])).toString();
    return `smpp://${encodeURIComponent(credentials.systemId)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${this.port}${search ? `?${search}` : ''}`;
  }

  accepted(): PeerSubmit[] {
    return this.submits.filter((submit) => submit.status === 0);
  }

  /**
   * How many submit_sm each destination received that may have reached the handset: accepted, or
   * never answered (the client died or the link dropped first — a carrier delivers those all the same).
   * Refused ones (throttled, errors) are not counted.
   */
  handedOver(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const submit of this.submits) {
      if (submit.status === 0 || submit.status === null) counts.set(submit.destinationAddr, (counts.get(submit.destinationAddr) ?? 0) + 1);
    }
    return counts;
  }

  /** deliver_sm sent and not yet acknowledged with status 0 (the peer will send them again). */
  get pendingDeliveries(): number {
    return this.undelivered.size;
  }

  /** The next `count` submit_sm are answered ESME_RTHROTTLED. */
  throttleNext(count: number): void {
    this.throttleRemaining = count;
  }

  /** Every submit_sm to `destinationAddr` is refused with `status`. */
  rejectTo(destinationAddr: string, status: number): void {
    this.rejections.set(destinationAddr, status);
  }

  /** Answers `count` more submit_sm, then leaves the rest unanswered until connections are dropped. */
  holdAfter(count: number): void {
    this.holdAfterRemaining = count;
  }

  /** Destroys every connection at once, as a network failure would (no unbind). */
  dropConnections(): void {
    this.holdAfterRemaining = null;
    for (const session of [...this.server.sessions]) session.destroy();
  }

  /** A delivery receipt for `messageId` with `stat` (DELIVRD, UNDELIV, …), in the standard text form plus TLVs. */
  sendReceipt(messageId: string, stat: string, options: { err?: string; textId?: string } = {}): void {
    const submit = this.submits.find((candidate) => candidate.messageId === messageId);
    const date = receiptDate(new Date());
    const text =
      `id:${options.textId ?? messageId} sub:001 dlvr:${stat === 'DELIVRD' ? '001' : '000'} submit date:${date} done date:${date} ` +
      `stat:${stat} err:${options.err ?? '000'} text:${(submit?.text ?? '').slice(0, 20)}`;
    this.deliver({
      source_addr_ton: submit?.destTon ?? 1,
      source_addr_npi: submit?.destNpi ?? 1,
      source_addr: submit?.destinationAddr ?? '',
      dest_addr_ton: submit?.sourceTon ?? 0,
      dest_addr_npi: submit?.sourceNpi ?? 0,
      destination_addr: submit?.sourceAddr ?? '',
      esm_class: 0x04,
      data_coding: 0,
      short_message: Buffer.from(text, 'ascii'),
      ...(this.receiptTlvs ? { receipted_message_id: messageId, message_state: MESSAGE_STATES[stat] ?? 7 } : {}),
    });
  }

  /** A message from a handset, whole or as UDH-concatenated parts. */
  sendMo(message: MobileOriginated): void {
    const ucs2 = message.coding === 'ucs2';
    const octets = ucs2 ? Buffer.from(message.body, 'utf16le').swap16() : smpp.gsmCoder.encode(message.body, 0);
    const common = {
      source_addr_ton: message.fromTon ?? 1,
      source_addr_npi: 1,
      source_addr: message.from,
      dest_addr_ton: 0,
      dest_addr_npi: 1,
      destination_addr: message.to,
      data_coding: ucs2 ? 8 : 0,
    };
    const total = message.parts ?? 1;
    if (total === 1) return this.deliver({ ...common, esm_class: 0, short_message: octets });
    const reference = 0x2a7f;
    const size = Math.ceil(octets.length / total / (ucs2 ? 2 : 1)) * (ucs2 ? 2 : 1);
    const sequences = Array.from({ length: total }, (_, index) => index + 1).filter((sequence) => message.only?.includes(sequence) ?? true);
    const parts = sequences.map((sequence) => {
      const header = message.reference16
        ? [0x06, 0x08, 0x04, reference >> 8, reference & 0xff, total, sequence]
        : [0x05, 0x00, 0x03, reference & 0xff, total, sequence];
      return Buffer.concat([Buffer.from(header), octets.subarray((sequence - 1) * size, sequence * size)]);
    });
    if (message.reverse) parts.reverse();
    for (const part of parts) this.deliver({ ...common, esm_class: ESM_CLASS_UDHI, short_message: part });
  }

  /** Sends enquire_link to the client; resolves with the command status of its enquire_link_resp. */
  enquireLinkClient(): Promise<number> {
    return new Promise((resolve) => this.boundSession().send(new smpp.PDU('enquire_link', {}), (response) => resolve(response.command_status)));
  }

  /** Sends unbind to the client, as an SMSC going down for maintenance does; resolves with the status of its unbind_resp. */
  unbindClient(): Promise<number> {
    const session = this.boundSession();
    this.bound.delete(session);
    return new Promise((resolve) => session.send(new smpp.PDU('unbind', {}), (response) => resolve(response.command_status)));
  }

  async close(): Promise<void> {
    this.redeliver = false;
    for (const timer of this.timers) clearTimeout(timer);
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(session: Session): void {
    session.on('error', () => {}); // connections are cut on purpose in tests
    session.on('close', () => {
      this.bound.delete(session);
      this.outstanding = 0;
      // What this connection never acknowledged goes to the next bind.
      for (const [fields, via] of this.undelivered) if (via === session) this.undelivered.set(fields, null);
    });
    session.on('bind_transceiver', (pdu: Pdu) => this.bind(session, pdu));
    session.on('submit_sm', (pdu: Pdu) => this.submit(session, pdu));
    session.on('enquire_link', (pdu: Pdu) => {
      this.enquireLinks++;
      if (this.answerEnquireLinks) session.send(pdu.response());
    });
    session.on('unbind', (pdu: Pdu) => {
      this.unbinds++;
      this.bound.delete(session);
      session.send(pdu.response(), () => session.close());
    });
  }

  private bind(session: Session, pdu: Pdu): void {
    const systemId = String(pdu.system_id);
    const password = String(pdu.password);
    const accepted = systemId === this.systemId && password === this.password;
    this.binds.push({ systemId, password, systemType: String(pdu.system_type), interfaceVersion: Number(pdu.interface_version), accepted });
    if (!accepted) {
      // Carriers answer a bad login and hang up.
      session.send(pdu.response({ command_status: smpp.errors.ESME_RBINDFAIL }), () => session.close());
      return;
    }
    this.bound.add(session);
    session.send(pdu.response({ system_id: 'herald-peer' }), () => this.flushUndelivered());
  }

  private flushUndelivered(): void {
    if (!this.redeliver) return;
    for (const [fields, via] of this.undelivered) if (via === null && this.bound.size > 0) this.deliver(fields);
  }

  private submit(session: Session, pdu: Pdu): void {
    const submit = recordSubmit(pdu);
    this.submits.push(submit);
    if (!this.bound.has(session)) return this.answer(session, pdu, submit, smpp.errors.ESME_RINVBNDSTS!);
    if (this.holdAfterRemaining !== null) {
      if (this.holdAfterRemaining === 0) return; // silence: the client's window fills up
      this.holdAfterRemaining--;
    }
    this.outstanding++;
    this.maxOutstanding = Math.max(this.maxOutstanding, this.outstanding);
    const status = this.statusFor(submit);
    const reply = () => {
      this.outstanding = Math.max(0, this.outstanding - 1);
      this.answer(session, pdu, submit, status);
    };
    const chosen = this.slowShare > 0 && Math.random() < this.slowShare ? this.slowDelayMs : this.responseDelayMs;
    const delay = typeof chosen === 'number' ? chosen : chosen.min + Math.random() * (chosen.max - chosen.min);
    if (delay <= 0) return reply();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      reply();
    }, delay);
    this.timers.add(timer);
  }

  private statusFor(submit: PeerSubmit): number {
    if (this.throttleRemaining > 0) {
      this.throttleRemaining--;
      return smpp.errors.ESME_RTHROTTLED!;
    }
    return this.rejections.get(submit.destinationAddr) ?? 0;
  }

  private answer(session: Session, pdu: Pdu, submit: PeerSubmit, status: number): void {
    if (session.socket.destroyed) return;
    submit.status = status;
    if (status !== 0) {
      session.send(pdu.response({ command_status: status }));
      return;
    }
    submit.messageId = (this.nextId++).toString(16);
    // A fast SMSC's receipt can share a TCP segment with the response: corked, the client reads both at once.
    session.socket.cork();
    session.send(pdu.response({ message_id: submit.messageId }));
    if (this.autoReceipt) this.sendReceipt(submit.messageId, this.autoReceipt);
    process.nextTick(() => session.socket.uncork());
  }

  /** Sends a deliver_sm; kept until a deliver_sm_resp with status 0 comes back (see `redeliver`). */
  private deliver(fields: Record<string, unknown>): void {
    const session = this.boundSession();
    this.undelivered.set(fields, session);
    session.send(new smpp.PDU('deliver_sm', { service_type: '', ...fields }), (response: Pdu) => {
      this.deliverResponses.push(response.command_status);
      if (response.command_status === 0) {
        this.deliverAcks++;
        this.undelivered.delete(fields);
        return;
      }
      this.undelivered.set(fields, null);
      if (!this.redeliver) return;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (this.redeliver && this.undelivered.get(fields) === null && this.bound.size > 0) this.deliver(fields);
      }, this.redeliverMs);
      this.timers.add(timer);
    });
  }

  private boundSession(): Session {
    const session = [...this.bound].at(-1);
    if (!session) throw new Error('SMPP peer: no bound connection');
    return session;
  }
}

function recordSubmit(pdu: Pdu): PeerSubmit {
  const esmClass = Number(pdu.esm_class);
  const dataCoding = Number(pdu.data_coding);
  const shortMessage = Buffer.isBuffer(pdu.short_message) ? pdu.short_message : Buffer.alloc(0);
  const payload = Buffer.isBuffer(pdu.message_payload) ? pdu.message_payload : null;
  const udh = esmClass & ESM_CLASS_UDHI && shortMessage.length > 0 ? shortMessage.subarray(0, shortMessage[0]! + 1) : null;
  const octets = payload ?? (udh ? shortMessage.subarray(udh.length) : shortMessage);
  const concatenation = udh && udh[1] === 0x00 && udh[2] === 0x03 ? { reference: udh[3]!, total: udh[4]!, sequence: udh[5]! } : null;
  const tlvs = Object.fromEntries(Object.entries(pdu).filter(([name]) => name in smpp.tlvs));
  return {
    sourceAddr: String(pdu.source_addr),
    sourceTon: Number(pdu.source_addr_ton),
    sourceNpi: Number(pdu.source_addr_npi),
    destinationAddr: String(pdu.destination_addr),
    destTon: Number(pdu.dest_addr_ton),
    destNpi: Number(pdu.dest_addr_npi),
    esmClass,
    dataCoding,
    registeredDelivery: Number(pdu.registered_delivery),
    shortMessage: Buffer.from(shortMessage),
    udh: udh && Buffer.from(udh),
    concatenation,
    payload: payload && Buffer.from(payload),
    octets: Buffer.from(octets),
    text: decode(octets, dataCoding),
    tlvs,
    status: null,
    messageId: null,
    receivedAt: Date.now(),
  };
}

function decode(octets: Buffer, dataCoding: number): string {
  if (dataCoding === 0) return smpp.gsmCoder.decode(octets, 0);
  if (dataCoding === 8) return Buffer.from(octets).swap16().toString('utf16le');
  return octets.toString('latin1');
}

/** YYMMDDhhmm, as receipts write dates. */
function receiptDate(date: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(date.getUTCFullYear() % 100)}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}${two(date.getUTCHours())}${two(date.getUTCMinutes())}`;
}
