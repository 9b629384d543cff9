import smpp from 'smpp';
import type { Pdu, Session } from 'smpp';
import { describeStatus } from './smpp-status';

export type SmppLog = (level: 'info' | 'warn' | 'error', message: string) => void;

export type SmppLinkOptions = {
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType: string;
  enquireLinkMs: number;
  enquireLinkTimeoutMs: number;
  /** How long a request (bind, submit_sm, unbind) may wait for its response. */
  responseTimeoutMs: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
  unbindTimeoutMs: number;
  log: SmppLog;
  /** A deliver_sm from the SMSC. `answer` must be called (the SMSC resends what is not answered). */
  onDeliverSm: (pdu: Pdu, answer: (fields?: Record<string, unknown>) => void) => void;
};

/** What became of a request: its response, never sent (no bound link), or lost (the link died or the response never came). */
export type LinkAnswer = { kind: 'answered'; pdu: Pdu } | { kind: 'not-sent' } | { kind: 'lost' };

/** SMPP 3.4: Herald speaks version 3.4, while the library's bind default is 0x50 (SMPP 5.0). */
const INTERFACE_VERSION_3_4 = 0x34;

/**
 * One bound transceiver connection to an SMSC, kept alive: enquire_link on a timer (a missing answer
 * counts as a dead link), rebinding with back-off after any close, error, refusal or unbind.
 * Requests in flight on a link that dies resolve as `lost`: nobody knows whether the SMSC took them.
 */
export function openSmppLink(options: SmppLinkOptions) {
  const { log } = options;
  const where = `${options.host}:${options.port}`;
  let session: Session | null = null;
  let bound = false;
  let closing = false;
  let failures = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let enquireTimer: NodeJS.Timeout | undefined;
  const inFlight = new Set<(answer: LinkAnswer) => void>();
  const boundWaiters = new Set<(bound: boolean) => void>();

  const wakeWaiters = (result: boolean) => {
    for (const waiter of [...boundWaiters]) waiter(result);
  };

  /** Why the current connection ends, said once when it has closed. */
  let ending: { reason: string; level: 'warn' | 'error' } | null = null;

  /** Drops the connection; its close event schedules the reconnection. */
  const drop = (current: Session, reason: string, level: 'warn' | 'error' = 'warn') => {
    if (session !== current) return;
    ending ??= { reason, level };
    bound = false;
    current.destroy();
  };

  const connect = () => {
    reconnectTimer = undefined;
    const current = smpp.connect({ host: options.host, port: options.port });
    session = current;
    ending = null;
    current.socket.setNoDelay(true);
    // A silently dropped SYN would otherwise wait minutes for the kernel to give up.
    const connectTimer = setTimeout(() => drop(current, `no connection within ${options.responseTimeoutMs} ms`), options.responseTimeoutMs);
    current.on('connect', () => {
      clearTimeout(connectTimer);
      void bind(current);
    });
    current.on('error', (error: Error) => drop(current, `connection error: ${error.message}`));
    current.on('close', () => {
      clearTimeout(connectTimer);
      closed(current);
    });
    current.on('pdu', (pdu: Pdu) => receive(current, pdu));
  };

  const bind = async (current: Session) => {
    const fields = { system_id: options.systemId, password: options.password, system_type: options.systemType, interface_version: INTERFACE_VERSION_3_4 };
    const answer = await send(current, 'bind_transceiver', fields, options.responseTimeoutMs);
    if (session !== current) return;
    if (answer.kind !== 'answered') return drop(current, 'no answer to bind_transceiver');
    const status = answer.pdu.command_status;
    if (status !== 0) return drop(current, `bind_transceiver as "${options.systemId}" refused: ${describeStatus(status)}`, 'error');
    bound = true;
    failures = 0;
    log('info', `SMPP ${where}: bound as transceiver "${options.systemId}"`);
    enquireTimer = setInterval(() => void enquire(current), options.enquireLinkMs);
    wakeWaiters(true);
  };

  const enquire = async (current: Session) => {
    const answer = await send(current, 'enquire_link', {}, options.enquireLinkTimeoutMs);
    if (answer.kind === 'lost') drop(current, `no enquire_link_resp within ${options.enquireLinkTimeoutMs} ms: the link is dead`);
  };

  const closed = (current: Session) => {
    if (session !== current) return;
    session = null;
    bound = false;
    clearInterval(enquireTimer);
    for (const settle of [...inFlight]) settle({ kind: 'lost' });
    if (closing) return;
    const delay = Math.min(options.reconnectMaxMs, options.reconnectMinMs * 2 ** failures);
    failures++;
    const { reason, level } = ending ?? { reason: 'connection closed by the SMSC', level: 'warn' };
    log(level, `SMPP ${where}: ${reason}; reconnecting in ${delay} ms`);
    reconnectTimer = setTimeout(connect, delay);
  };

  const receive = (current: Session, pdu: Pdu) => {
    if (pdu.isResponse()) return; // the library hands responses to the request's callback
    const answer = (fields?: Record<string, unknown>) => void current.send(pdu.response(fields));
    switch (pdu.command) {
      case 'enquire_link':
        return answer();
      case 'unbind':
        bound = false;
        return void current.send(pdu.response(), () => drop(current, 'the SMSC unbound'));
      case 'deliver_sm':
        return options.onDeliverSm(pdu, answer);
      case 'alert_notification': // has no response
        return;
      default: {
        // Commands without a response of their own (and unknown ones) get generic_nack.
        const status = { command_status: smpp.errors.ESME_RINVCMDID };
        if (`${pdu.command}_resp` in smpp.commands) return answer(status);
        return void current.send(new smpp.PDU('generic_nack', { ...status, sequence_number: pdu.sequence_number }));
      }
    }
  };

  /** Sends a request on `current` and waits for its response, at most `timeoutMs`. */
  const send = (current: Session, command: string, fields: Record<string, unknown>, timeoutMs: number) =>
    new Promise<LinkAnswer>((resolve) => {
      const settle = (answer: LinkAnswer) => {
        if (!inFlight.delete(settle)) return;
        clearTimeout(timer);
        resolve(answer);
      };
      const timer = setTimeout(() => settle({ kind: 'lost' }), timeoutMs);
      inFlight.add(settle);
      // A socket that can no longer write answers nothing: treat the link as gone rather than spin.
      if (!current.send(new smpp.PDU(command, fields), (pdu) => settle({ kind: 'answered', pdu }))) {
        settle({ kind: 'not-sent' });
        drop(current, `cannot write ${command}`);
      }
    });

  connect();

  return {
    /** Whether the transceiver bind is up right now. */
    isBound(): boolean {
      return session !== null && bound;
    },
    /** Sends a request on the bound link; `not-sent` when there is none right now. */
    request(command: string, fields: Record<string, unknown>): Promise<LinkAnswer> {
      if (!session || !bound) return Promise.resolve({ kind: 'not-sent' });
      return send(session, command, fields, options.responseTimeoutMs);
    },
    /** Resolves true once bound (at once when it is), false after `timeoutMs` or on close. */
    waitUntilBound(timeoutMs: number): Promise<boolean> {
      if (bound) return Promise.resolve(true);
      if (closing || timeoutMs <= 0) return Promise.resolve(false);
      return new Promise((resolve) => {
        const done = (result: boolean) => {
          boundWaiters.delete(done);
          clearTimeout(timer);
          resolve(result);
        };
        const timer = setTimeout(() => done(false), timeoutMs);
        boundWaiters.add(done);
      });
    },
    /** Drops and rebinds, e.g. when the SMSC answers as if we were not bound. */
    restart(reason: string): void {
      if (session) drop(session, reason);
    },
    /** Unbinds politely (waiting at most unbindTimeoutMs), then closes the socket; no reconnection after this. */
    async close(): Promise<void> {
      if (closing) return;
      closing = true;
      clearTimeout(reconnectTimer);
      clearInterval(enquireTimer);
      wakeWaiters(false);
      const current = session;
      if (!current) return;
      if (bound) await send(current, 'unbind', {}, options.unbindTimeoutMs);
      if (current.socket.destroyed) return;
      await new Promise<void>((resolve) => current.destroy(resolve));
    },
  };
}

export type SmppLink = ReturnType<typeof openSmppLink>;
