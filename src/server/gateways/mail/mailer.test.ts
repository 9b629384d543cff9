import fs from 'node:fs/promises';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSmtpSink } from '../../testing/smtp-sink';
import type { SmtpSink } from '../../testing/smtp-sink';
import { createMailer } from './mailer';
import type { Mailer } from './mailer';

const from = 'Herald <reports@herald.example>';
const report = {
  to: 'marketer@shop.example',
  subject: 'Your report “Spring sale” is ready',
  text: 'Download it within 7 days: https://herald.example/reports/42?signature=abc',
  html: '<p>Download it within 7 days: <a href="https://herald.example/reports/42?signature=abc">report</a></p>',
};

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function sink(options?: Parameters<typeof startSmtpSink>[0]): Promise<SmtpSink> {
  const started = await startSmtpSink(options);
  cleanups.push(started.close);
  return started;
}

function mailer(options: Partial<Parameters<typeof createMailer>[0]> & { smtpUrl: string | undefined }): Mailer {
  const created = createMailer({ outboxDir: path.join(os.tmpdir(), 'herald-unused-outbox'), from, log: () => {}, timeoutMs: 2_000, ...options });
  cleanups.push(created.close);
  return created;
}

/** A loopback port nothing listens on: bound by the system, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('mailer over SMTP', () => {
  it('delivers the message with From, To, Subject, Date, Message-ID, text and html', async () => {
    const smtp = await sink();
    const outcome = await mailer({ smtpUrl: smtp.url }).send(report);

    expect(outcome).toEqual({ delivery: 'smtp' });
    const received = await smtp.waitForMessage();
    expect(received.from).toBe('reports@herald.example');
    expect(received.to).toEqual(['marketer@shop.example']);
    expect(received.subject).toBe(report.subject);
    expect(received.text.trim()).toBe(report.text);
    expect(received.html).toContain('href="https://herald.example/reports/42?signature=abc"');
    expect(received.headers.from).toBe('Herald <reports@herald.example>');
    expect(received.headers.to).toBe('marketer@shop.example');
    expect(Number.isNaN(Date.parse(received.headers.date!))).toBe(false);
    expect(received.headers['message-id']).toMatch(/^<[^@\s]+@[^>\s]+>$/);
    expect(received.user).toBeNull();
  });

  it('sends a text-only message without an html part', async () => {
    const smtp = await sink();
    await mailer({ smtpUrl: smtp.url }).send({ to: 'a@shop.example', subject: 'Plain', text: 'Just text.' });

    const received = await smtp.waitForMessage((message) => message.subject === 'Plain');
    expect(received.text.trim()).toBe('Just text.');
    expect(received.html).toBeNull();
  });

  it('logs in with the credentials of the URL', async () => {
    const smtp = await sink({ requireAuth: { user: 'herald', pass: 's3cret:/@' } });
    expect(smtp.url).toContain('herald:s3cret%3A%2F%40@');

    await mailer({ smtpUrl: smtp.url }).send(report);

    expect((await smtp.waitForMessage()).user).toBe('herald');
  });

  it('rejects when the server refuses the credentials, without repeating the password', async () => {
    const smtp = await sink({ requireAuth: { user: 'herald', pass: 'right-password' } });
    const wrongUrl = `smtp://herald:wrong-password@127.0.0.1:${smtp.port}`;

    const failure = await mailer({ smtpUrl: wrongUrl })
      .send(report)
      .catch((error: Error) => error);

    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/could not be sent.*535/);
    expect((failure as Error).message).not.toContain('wrong-password');
    expect(smtp.messages).toHaveLength(0);
  });

  it('rejects a refused message with the server’s answer, and the next attempt goes through', async () => {
    const smtp = await sink();
    smtp.refuseNext(1, 451, 'Mailbox busy, try later');
    const transport = mailer({ smtpUrl: smtp.url });

    await expect(transport.send(report)).rejects.toThrow(
      `The mail to marketer@shop.example could not be sent through smtp://127.0.0.1:${smtp.port}: the server answered "451 Mailbox busy, try later"`,
    );
    expect(smtp.messages).toHaveLength(0);

    await expect(transport.send(report)).resolves.toEqual({ delivery: 'smtp' });
    expect(smtp.messages).toHaveLength(1);
  });

  it('rejects quickly when nothing listens on the port', { timeout: 10_000 }, async () => {
    const port = await closedPort();

    await expect(mailer({ smtpUrl: `smtp://127.0.0.1:${port}`, timeoutMs: 1_000 }).send(report)).rejects.toThrow(
      new RegExp(`^The mail to marketer@shop\\.example could not be sent through smtp://127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`),
    );
  });

  it('rejects within the timeout when the server accepts the connection but never greets', { timeout: 10_000 }, async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });
    const { port } = silent.address() as AddressInfo;

    await expect(mailer({ smtpUrl: `smtp://127.0.0.1:${port}`, timeoutMs: 500 }).send(report)).rejects.toThrow(
      /could not be sent through smtp:\/\/127\.0\.0\.1:\d+: no answer within 0\.5 s/,
    );
    expect(sockets.size).toBe(1);
  });
});

describe('mailer without SMTP (outbox)', () => {
  async function outboxDir(): Promise<string> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-outbox-'));
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    return path.join(dir, 'outbox'); // not there yet: the mailer creates it
  }

  it('writes a parseable .eml file and logs the recipient, subject and path', async () => {
    const dir = await outboxDir();
    const log = vi.fn();

    const outcome = await mailer({ smtpUrl: undefined, outboxDir: dir, log }).send(report);

    expect(outcome.delivery).toBe('outbox');
    expect(path.dirname(outcome.location!)).toBe(dir);
    expect(path.basename(outcome.location!)).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-[0-9a-f]{8}\.eml$/);
    expect(await fs.readdir(dir)).toEqual([path.basename(outcome.location!)]); // no temporary file left behind

    const raw = await fs.readFile(outcome.location!);
    expect(raw.toString('latin1')).toMatch(/^[\x21-\x7e]+: .*\r\n/); // header lines end in CRLF, as RFC 822 says
    const parsed = await simpleParser(raw);
    expect(parsed.from?.value).toEqual([{ name: 'Herald', address: 'reports@herald.example' }]);
    expect(parsed.subject).toBe(report.subject);
    expect(parsed.text?.trim()).toBe(report.text);
    expect(parsed.html).toContain('href="https://herald.example/reports/42?signature=abc"');
    expect(parsed.date).toBeInstanceOf(Date);
    expect(parsed.messageId).toMatch(/^<[^@\s]+@[^>\s]+>$/);
    expect(parsed.headers.get('to')).toMatchObject({ value: [{ address: 'marketer@shop.example' }] });

    expect(log).toHaveBeenCalledTimes(1);
    const [line, fields] = log.mock.calls[0]!;
    expect(line).toContain('marketer@shop.example');
    expect(line).toContain(report.subject);
    expect(line).toContain(outcome.location);
    expect(fields).toEqual({ to: 'marketer@shop.example', subject: report.subject, path: outcome.location });
  });

  it('gives every message its own file, named so a listing sorts by time', async () => {
    const dir = await outboxDir();
    const transport = mailer({ smtpUrl: undefined, outboxDir: dir });
    vi.useFakeTimers({ toFake: ['Date'] });
    cleanups.push(async () => vi.useRealTimers());

    const locations: string[] = [];
    for (const [subject, time] of [
      ['first', '2026-03-09T23:59:59.999Z'],
      ['second', '2026-03-10T00:00:00.000Z'],
      ['third', '2026-03-10T00:00:00.000Z'],
    ] as const) {
      vi.setSystemTime(new Date(time));
      locations.push((await transport.send({ ...report, subject })).location!);
    }

    const names = (await fs.readdir(dir)).sort();
    expect(names).toHaveLength(3); // two in the same millisecond still get a file each
    expect(names.map((name) => name.slice(0, 24))).toEqual(['2026-03-09T23-59-59-999Z', '2026-03-10T00-00-00-000Z', '2026-03-10T00-00-00-000Z']);
    expect(names[0]).toBe(path.basename(locations[0]!));
    expect(new Set(locations.map((location) => path.basename(location)))).toEqual(new Set(names));
  });
});
