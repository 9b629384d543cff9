import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { SMTPServerError } from 'smtp-server';

/** One message the sink accepted: the SMTP envelope, and the content read by an independent parser. */
export type SunkMessage = {
  /** MAIL FROM of the envelope. */
  from: string;
  /** RCPT TO addresses of the envelope. */
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  /** Header lines by lower-case name, values as written (folded lines joined). */
  headers: Record<string, string>;
  /** The user name the client authenticated with, null when it did not. */
  user: string | null;
  /** The message exactly as received after DATA. */
  raw: string;
};

export type SmtpSink = Awaited<ReturnType<typeof startSmtpSink>>;

/**
 * A real SMTP server on loopback (plain text, no STARTTLS) that keeps every message it accepts.
 * With `requireAuth` it refuses mail from clients that did not log in with those credentials.
 */
export async function startSmtpSink(options: { requireAuth?: { user: string; pass: string } } = {}) {
  const messages: SunkMessage[] = [];
  const waiters = new Set<(message: SunkMessage) => void>();
  let refusals: Array<{ code: number; message: string }> = [];

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'], // nodemailer upgrades when offered, and would reject the built-in certificate
    allowInsecureAuth: true,
    authOptional: !options.requireAuth,
    logger: false,
    closeTimeout: 500,
    onAuth(auth, _session, callback) {
      const expected = options.requireAuth;
      if (expected && (auth.username !== expected.user || auth.password !== expected.pass)) {
        return callback(Object.assign(new Error('Invalid user name or password'), { responseCode: 535 }));
      }
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const refusal = refusals.shift();
        if (refusal) {
          const error: SMTPServerError = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
          return callback(error);
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            const message: SunkMessage = {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: parsed.html || null,
              headers: Object.fromEntries(
                parsed.headerLines.map(({ key, line }) => [
                  key,
                  line
                    .slice(line.indexOf(':') + 1)
                    .replace(/\r?\n[ \t]+/g, ' ')
                    .trim(),
                ]),
              ),
              user: typeof session.user === 'string' ? session.user : null,
              raw: raw.toString('utf8'),
            };
            messages.push(message);
            for (const waiter of waiters) waiter(message);
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  server.on('error', () => {}); // a client that drops its connection is not the test's failure

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const credentials = options.requireAuth ? `${encodeURIComponent(options.requireAuth.user)}:${encodeURIComponent(options.requireAuth.pass)}@` : '';

  return {
    /** `smtp://[user:pass@]127.0.0.1:port`, ready for the mailer (credentials included when required). */
    url: `smtp://${credentials}127.0.0.1:${port}`,
    port,
    messages,
    /** The first accepted message (already received or still to come) that matches `predicate`. */
    waitForMessage(predicate: (message: SunkMessage) => boolean = () => true, timeoutMs = 5_000): Promise<SunkMessage> {
      const received = messages.find(predicate);
      if (received) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const waiter = (message: SunkMessage) => {
          if (!predicate(message)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(message);
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`No matching message reached the SMTP sink within ${timeoutMs} ms (${messages.length} received).`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    /** Refuse the next `count` messages after DATA with `code` (451 by default: try again later). */
    refuseNext(count: number, code = 451, message = 'Requested action aborted: local error in processing') {
      refusals = [...refusals, ...Array.from({ length: count }, () => ({ code, message }))];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
