import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { SendMailOptions } from 'nodemailer';

export type MailMessage = { to: string; subject: string; text: string; html?: string };
export type MailDelivery = { delivery: 'smtp' | 'outbox'; location?: string };
export type Mailer = { send(message: MailMessage): Promise<MailDelivery>; close(): Promise<void> };

export type MailerOptions = {
  /** `smtp://user:pass@host:port` or `smtps://…`; unset: messages go to `outboxDir` instead. */
  smtpUrl: string | undefined;
  outboxDir: string;
  /** The From header, e.g. `Herald <reports@example.com>`. */
  from: string;
  log: (message: string, fields?: Record<string, unknown>) => void;
  /** Connection, greeting and socket timeouts of the SMTP conversation (default 10 s). */
  timeoutMs?: number;
};

/**
 * Sends e-mail through SMTP when `smtpUrl` is set, otherwise writes each message as an `.eml`
 * file into `outboxDir` and logs where. One attempt per `send`: a refusal or an unreachable
 * server rejects, and the caller decides when to try again.
 */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? createSmtpMailer({ ...options, smtpUrl: options.smtpUrl }) : createOutboxMailer(options);
}

function compose(from: string, message: MailMessage): SendMailOptions {
  // nodemailer adds the Date and Message-ID headers itself, the same way in both transports.
  return { from, to: message.to, subject: message.subject, text: message.text, ...(message.html === undefined ? {} : { html: message.html }) };
}

function createSmtpMailer(options: MailerOptions & { smtpUrl: string }): Mailer {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const server = describeServer(options.smtpUrl);
  // Not pooled: reports are mailed a few at a time, and a fresh connection per message never
  // trips over one the server has silently dropped.
  const transport = nodemailer.createTransport({
    url: options.smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail(compose(options.from, message));
      } catch (error) {
        throw new Error(`The mail to ${message.to} could not be sent through ${server}: ${explain(error, timeoutMs)}`, { cause: error });
      }
      return { delivery: 'smtp' };
    },
    async close() {
      transport.close();
    },
  };
}

/** host:port of the SMTP URL, never its credentials (the text ends up in logs). */
function describeServer(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'the SMTP server';
  }
}

function explain(error: unknown, timeoutMs: number): string {
  const failure = error as Error & { code?: string; response?: string };
  if (failure.response) return `the server answered "${failure.response.trim()}"`;
  if (failure.code === 'ETIMEDOUT') return `no answer within ${timeoutMs / 1000} s (${failure.message})`;
  return failure.message || String(error);
}

function createOutboxMailer(options: MailerOptions): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(message) {
      const info = await transport.sendMail(compose(options.from, message));
      // Mails carry signed download links: readable by the service's user only.
      await fs.mkdir(options.outboxDir, { recursive: true, mode: 0o700 });
      // ISO time first so a listing sorts by time; the suffix keeps two mails of one millisecond apart.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const location = path.join(options.outboxDir, name);
      const temporary = path.join(options.outboxDir, `.${name}.tmp`);
      await fs.writeFile(temporary, info.message as Buffer, { mode: 0o600 });
      await fs.rename(temporary, location); // a reader never sees half a message
      options.log(`Mail to ${message.to} "${message.subject}" written to ${location} (no SMTP_URL set)`, {
        to: message.to,
        subject: message.subject,
        path: location,
      });
      return { delivery: 'outbox', location };
    },
    async close() {
      transport.close();
    },
  };
}
