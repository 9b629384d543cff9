import type { Mailer } from '../../gateways/mail/mailer';
import { createPollingLoop } from '../../lib/polling-loop';
import type { Clock } from '../../lib/time';
import type { AccountMailRepository } from './account-mail.repository';

export type AccountMailWorkerOptions = {
  /** How often the outbox is looked at (default 1 s). */
  pollMs?: number;
  /** First wait after a failed attempt, doubled each time up to an hour (default 30 s). */
  retryBaseMs?: number;
  /** Attempts before an e-mail is given up (default 12, about a day of back-off). */
  maxAttempts?: number;
};

/**
 * Sends the account e-mails the outbox holds (invitations, password resets, approval requests). A
 * refused or unreachable mail server is tried again with back-off; a process that dies while sending
 * leaves the e-mail to be taken again once its lease has passed.
 */
export function createAccountMailWorker(deps: {
  outbox: AccountMailRepository;
  mailer: Mailer;
  clock: Clock;
  log: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  options?: AccountMailWorkerOptions;
}) {
  const pollMs = deps.options?.pollMs ?? 1_000;
  const retryBaseMs = deps.options?.retryBaseMs ?? 30_000;
  const maxAttempts = deps.options?.maxAttempts ?? 12;
  const LEASE_MS = 120_000;

  async function runOnce(): Promise<number> {
    const due = await deps.outbox.claimDue(10, LEASE_MS);
    for (const mail of due) {
      try {
        await deps.mailer.send({ to: mail.to, subject: mail.subject, text: mail.body });
        await deps.outbox.sent(mail.id);
        deps.log('info', 'account e-mail sent', { to: mail.to, subject: mail.subject });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const retryAt =
          mail.attempts >= maxAttempts ? null : new Date(deps.clock.now().getTime() + Math.min(3_600_000, retryBaseMs * 2 ** (mail.attempts - 1)));
        await deps.outbox.failed(mail.id, reason, retryAt);
        deps.log(retryAt ? 'warn' : 'error', retryAt ? 'account e-mail not sent; tried again later' : 'account e-mail given up', { to: mail.to, reason });
      }
    }
    return due.length;
  }

  const loop = createPollingLoop(runOnce, pollMs, (reason) => deps.log('error', 'the account e-mail outbox could not be read', { reason }));
  return { runOnce, start: loop.start, stop: loop.stop };
}
export type AccountMailWorker = ReturnType<typeof createAccountMailWorker>;
