import type { Mailer } from '../../gateways/mail/mailer';
import type { Clock } from '../../lib/time';
import type { JobQueue } from '../../jobs/runner';
import { retryAt as retryAtOf, type RetryPolicy } from '../../jobs/retry-policy';
import type { AccountMailRepository } from './account-mail.repository';

export type AccountMailWorkerOptions = {
  /** First wait after a failed attempt, doubled each time up to an hour, up to a tenth sooner at random (default 30 s). */
  retryBaseMs?: number;
  /** Attempts before an e-mail is given up (default 12, about a day of back-off). */
  maxAttempts?: number;
};

/**
 * The queue `account_mail` of the job runner (jobs/runner.ts): sends the account e-mails the outbox
 * holds (invitations, password resets, approval requests). A refused or unreachable mail server is
 * tried again by the one retry policy; a process that dies while sending leaves the e-mail to be
 * taken again once its lease has passed.
 */
export function createAccountMailWorker(deps: {
  outbox: AccountMailRepository;
  mailer: Mailer;
  clock: Clock;
  log: (level: 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  options?: AccountMailWorkerOptions;
}) {
  const policy: RetryPolicy = { baseMs: deps.options?.retryBaseMs ?? 30_000, capMs: 3_600_000, maxAttempts: deps.options?.maxAttempts ?? 12 };
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
        const retryAt = retryAtOf(mail.attempts, policy, deps.clock.now());
        await deps.outbox.failed(mail.id, reason, retryAt);
        deps.log(retryAt ? 'warn' : 'error', retryAt ? 'account e-mail not sent; tried again later' : 'account e-mail given up', { to: mail.to, reason });
      }
    }
    return due.length;
  }

  const queue: JobQueue = {
    name: 'account_mail',
    async runDue(stopping) {
      let taken = 0;
      while (!stopping()) {
        const n = await runOnce();
        if (n === 0) break;
        taken += n;
      }
      return taken;
    },
  };
  return { runOnce, queue };
}
export type AccountMailWorker = ReturnType<typeof createAccountMailWorker>;
