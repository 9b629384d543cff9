import type { Mailer } from '../../gateways/mail/mailer';
import { formatTimestamp, type Clock } from '../../lib/time';
import { REPORT_LINK_DAYS } from './report-links';
import type { ReportJobRecord, ReportsRepository } from './reports.repository';
import type { ReportsService } from './reports.service';

const REPORT_NAMES = {
  clicks: 'clicks',
  delivery: 'delivery',
  alt_delivery: 'alternative delivery',
  recipient: 'recipients',
  sent: 'sent messages',
  unsent: 'unsent messages',
} as const;

export type ReportWorkerOptions = {
  /** How long a worker holds a job before another may take it over (it died). */
  leaseMs: number;
  /** The first retry's delay; each next one doubles, up to an hour. */
  retryBaseMs: number;
  /** Attempts (writing, then mailing) before the job is given up. */
  maxAttempts: number;
  pollMs: number;
};

export const DEFAULT_REPORT_WORKER_OPTIONS: ReportWorkerOptions = { leaseMs: 10 * 60_000, retryBaseMs: 30_000, maxAttempts: 12, pollMs: 1000 };

/**
 * Runs report jobs: writes the CSV, then e-mails the signed link. Each step is recorded, so after a
 * crash a job goes on from the last one (the lease ends and another worker takes it); an e-mail the
 * mail server refuses, or a mail server that is down, is tried again with back-off.
 */
export function createReportWorker(deps: {
  reports: ReportsRepository;
  service: ReportsService;
  mailer: Mailer;
  clock: Clock;
  config: { appTimezone: string };
  log: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
  options?: Partial<ReportWorkerOptions>;
}) {
  const options = { ...DEFAULT_REPORT_WORKER_OPTIONS, ...deps.options };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const mail = async (job: ReportJobRecord, expiresAt: Date) => {
    const url = deps.service.linkFor(job, expiresAt);
    const name = REPORT_NAMES[job.type];
    const until = formatTimestamp(expiresAt, deps.config.appTimezone);
    const sent = await deps.mailer.send({
      to: job.email,
      subject: `Your ${name} report for “${job.campaignName}” is ready`,
      text: [
        `Hello,`,
        ``,
        `The ${name} report of the campaign “${job.campaignName}” is ready (${job.rowCount ?? 0} rows, CSV).`,
        ``,
        `Download it here: ${url}`,
        ``,
        `The link works until ${until} (${REPORT_LINK_DAYS} days) and needs no sign-in, so keep it to yourself.`,
        ``,
        `— Herald`,
      ].join('\n'),
      html: `<p>Hello,</p><p>The ${name} report of the campaign “${escapeHtml(job.campaignName)}” is ready (${job.rowCount ?? 0} rows, CSV).</p>
<p><a href="${escapeHtml(url)}">Download the report</a></p>
<p>The link works until ${until} (${REPORT_LINK_DAYS} days) and needs no sign-in, so keep it to yourself.</p><p>— Herald</p>`,
    });
    // The link is a credential: logged only when there is no mail server to carry it (the outbox).
    deps.log('info', 'report e-mailed', { job: job.uuid, to: job.email, ...(sent.delivery === 'outbox' ? { link: url } : {}) });
  };

  const runJob = async (job: ReportJobRecord) => {
    try {
      if (job.status === 'writing') {
        const written = await deps.service.writeCsv(job);
        const expiresAt = new Date(deps.clock.now().getTime() + REPORT_LINK_DAYS * 86_400_000);
        await deps.reports.written(job.id, { ...written, linkExpiresAt: expiresAt }, deps.clock.now());
        job = { ...job, ...written, status: 'mailing', linkExpiresAt: expiresAt, attempts: 1 };
      }
      await mail(job, job.linkExpiresAt!);
      await deps.reports.mailed(job.id, deps.clock.now());
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      // What the user sees: the mail server's answer, but never a path or system detail of this machine.
      const reason = job.status === 'writing' ? 'The CSV file could not be written on the server.' : detail;
      const giveUp = job.attempts >= options.maxAttempts;
      const retryAt = giveUp ? null : new Date(deps.clock.now().getTime() + Math.min(3_600_000, options.retryBaseMs * 2 ** (job.attempts - 1)));
      await deps.reports.attemptFailed(job.id, reason, retryAt, deps.clock.now());
      deps.log('warn', giveUp ? 'report job given up' : 'report job will be retried', { job: job.uuid, step: job.status, error: detail, retryAt });
    }
  };

  /** Runs every job due now, one after the other. */
  const runDue = async () => {
    for (;;) {
      if (stopped) return;
      const job = await deps.reports.claimJob(deps.clock.now(), options.leaseMs);
      if (!job) return;
      await runJob(job);
    }
  };

  const loop = () => {
    if (stopped) return;
    running = runDue()
      .catch((error: unknown) => deps.log('warn', 'report worker pass failed', { error: error instanceof Error ? error.message : String(error) }))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(loop, options.pollMs);
      });
  };

  return {
    runDue,
    start(): void {
      stopped = false;
      loop();
    },
    /** Stops taking jobs and waits for the one in hand. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
export type ReportWorker = ReturnType<typeof createReportWorker>;
