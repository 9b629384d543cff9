import type { Db } from '../../db/client';
import type { Mailer } from '../../gateways/mail/mailer';
import { reportFiltersInWords } from '../../../shared/contract';
import { formatTimestamp, type Clock } from '../../lib/time';
import { holdLease, LeaseLost } from '../../jobs/lease';
import { retryAt as retryAtOf, type RetryPolicy } from '../../jobs/retry-policy';
import { createJobRunner, type JobQueue, type PeriodicJob } from '../../jobs/runner';
import { REPORT_LINK_DAYS } from './report-links';
import type { ClaimedReportJob, ReportJobRecord, ReportJobsRepository } from './report-jobs.repository';
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
  /**
   * How long a claim holds a job before another worker may take it over (its worker died); a live
   * worker renews it every third of that while it writes and mails.
   */
  leaseMs: number;
  /** The first retry's delay; each next one doubles, up to an hour, up to a tenth sooner at random (jobs/retry-policy.ts). */
  retryBaseMs: number;
  /** Attempts (writing, then mailing) before the job is given up. */
  maxAttempts: number;
  /** How often `start` (tests) looks for due jobs; the job runner's own poll in a process. */
  pollMs: number;
  /** How often stored reports whose links have expired (and parts no attempt can publish) are removed; also once at start. */
  sweepMs: number;
};

export const DEFAULT_REPORT_WORKER_OPTIONS: ReportWorkerOptions = {
  leaseMs: 10 * 60_000,
  retryBaseMs: 30_000,
  maxAttempts: 12,
  pollMs: 1000,
  sweepMs: 10 * 60_000,
};

/**
 * Runs report jobs: writes the CSV, then e-mails the signed link. Each step is recorded, so after a
 * crash a job goes on from the last one (the lease ends and another worker takes it); an e-mail the
 * mail server refuses, or a mail server that is down, is tried again with back-off.
 *
 * Leases are fenced: each claim has its own token, renewed while the worker writes and mails, and
 * every step is recorded only while the token is still the job's. A worker that stalled past its
 * lease and was taken over finds out at its next renewal or step and stops: it removes its own
 * stored parts and neither publishes them as the job's file nor sends the e-mail.
 *
 * The CSV lives in the database (report_file_parts), so the API process that receives the download
 * need not be this one; the link is built on the public URL stored with the job by the API process
 * that received the request, not on this process's PUBLIC_URL. Reports are removed once their links
 * have expired (`sweep`, at start and every `sweepMs`).
 *
 * It is the queue `report` and the periodic job `report.sweep` of the job runner (jobs/runner.ts),
 * which owns the polling, the leases' renewal and the retry policy; `start` and `stop` run it on a
 * runner of its own (tests).
 */
export function createReportWorker(deps: {
  db: Db;
  reports: ReportJobsRepository;
  service: ReportsService;
  mailer: Mailer;
  clock: Clock;
  config: { appTimezone: string };
  log: (level: 'info' | 'warn', message: string, fields?: Record<string, unknown>) => void;
  options?: Partial<ReportWorkerOptions>;
}) {
  const options = { ...DEFAULT_REPORT_WORKER_OPTIONS, ...deps.options };
  const policy: RetryPolicy = { baseMs: options.retryBaseMs, capMs: 3_600_000, maxAttempts: options.maxAttempts };

  const mail = async (job: ReportJobRecord, expiresAt: Date) => {
    const url = deps.service.linkFor(job, expiresAt);
    const name = REPORT_NAMES[job.type];
    const until = formatTimestamp(expiresAt, deps.config.appTimezone);
    // A filtered report says so wherever it is named: its rows are not the whole report's.
    const filters = reportFiltersInWords(job.filters);
    const filtered = filters ? ` (filtered: ${filters})` : '';
    const rows = `${job.rowCount ?? 0} rows${filters ? ' that match' : ''}, CSV`;
    const sent = await deps.mailer.send({
      to: job.email,
      subject: `Your ${name} report${filtered} for “${job.campaignName}” is ready`,
      text: [
        `Hello,`,
        ``,
        `The ${name} report${filtered} of the campaign “${job.campaignName}” is ready (${rows}).`,
        ``,
        `Download it here: ${url}`,
        ``,
        `The link works until ${until} (${REPORT_LINK_DAYS} days) and needs no sign-in, so keep it to yourself.`,
        ``,
        `— Herald`,
      ].join('\n'),
      html: `<p>Hello,</p><p>The ${name} report${escapeHtml(filtered)} of the campaign “${escapeHtml(job.campaignName)}” is ready (${rows}).</p>
<p><a href="${escapeHtml(url)}">Download the report</a></p>
<p>The link works until ${until} (${REPORT_LINK_DAYS} days) and needs no sign-in, so keep it to yourself.</p><p>— Herald</p>`,
    });
    // The link is a credential: logged only when there is no mail server to carry it (the outbox).
    deps.log('info', 'report e-mailed', { job: job.uuid, to: job.email, ...(sent.delivery === 'outbox' ? { link: url } : {}) });
  };

  const runJob = async (job: ClaimedReportJob) => {
    const { lease } = job;
    const held = holdLease({
      renew: () => deps.reports.renew(lease, deps.clock.now(), options.leaseMs),
      leaseMs: options.leaseMs,
      onError: (error) => deps.log('warn', 'report job lease not renewed', { job: lease.jobId, error: error instanceof Error ? error.message : String(error) }),
    });
    const lost = (step: string) => deps.log('warn', 'report job taken over by another worker; this attempt stops', { job: job.uuid, step, token: lease.token });
    try {
      if (job.status === 'writing') {
        const csv = await deps.service.writeCsvAttempt(job, lease.token, held.signal);
        const expiresAt = new Date(deps.clock.now().getTime() + REPORT_LINK_DAYS * 86_400_000);
        let ours = false;
        try {
          // The attempt's parts become the job's file inside the fenced `written`, so only the job's owner publishes.
          const file = { fileName: csv.fileName, rowCount: csv.rowCount, bytes: csv.bytes, linkExpiresAt: expiresAt };
          ours = await deps.db.transaction((tx) => deps.reports.written(tx, lease, file, deps.clock.now()));
        } finally {
          // Not published (taken over, or the step failed): its parts go (never the published file's).
          if (!ours) await deps.service.discardCsv(csv);
        }
        if (!ours) throw new LeaseLost('the report job');
        job = {
          ...job,
          fileName: csv.fileName,
          rowCount: csv.rowCount,
          fileAttempt: lease.token,
          fileBytes: csv.bytes,
          status: 'mailing',
          linkExpiresAt: expiresAt,
          attempts: 1,
        };
      }
      // Still ours, and for a whole lease from now: time enough for the e-mail, which cannot be taken back.
      if (!(await held.renewNow())) throw new LeaseLost('the report job');
      await mail(job, job.linkExpiresAt!);
      await held.stop();
      // Taken over during the e-mail itself (it outlasted a whole renewed lease): the newer attempt mails again.
      if (!(await deps.reports.mailed(lease, deps.clock.now())))
        deps.log('warn', 'report e-mailed, but the job was taken over meanwhile', { job: job.uuid, token: lease.token });
    } catch (error) {
      await held.stop();
      if (error instanceof LeaseLost || held.signal.aborted) return lost(job.status);
      const detail = error instanceof Error ? error.message : String(error);
      // What the user sees: the mail server's answer, but never a path or system detail of this machine.
      const reason = job.status === 'writing' ? 'The CSV file could not be written on the server.' : detail;
      const retryAt = retryAtOf(job.attempts, policy, deps.clock.now());
      const giveUp = retryAt === null;
      if (!(await deps.reports.attemptFailed(lease, reason, retryAt, deps.clock.now()))) return lost(job.status);
      deps.log('warn', giveUp ? 'report job given up' : 'report job will be retried', { job: job.uuid, step: job.status, error: detail, retryAt });
    } finally {
      await held.stop();
    }
  };

  /** Runs every job due now, one after the other; how many. */
  const runDue = async (stopping: () => boolean = () => false): Promise<number> => {
    let ran = 0;
    while (!stopping()) {
      const job = await deps.reports.claimJob(deps.clock.now(), options.leaseMs);
      if (!job) break;
      await runJob(job);
      ran += 1;
    }
    return ran;
  };

  /**
   * Reports whose links have expired (they hold phone numbers: kept no longer than a link can fetch
   * them), parts of attempts that can never publish, and what older releases left in DATA_DIR/reports
   * (a partial file only once untouched for a whole lease, so no live attempt is writing it).
   */
  const sweep = async () => {
    try {
      const removed = await deps.service.sweep(options.leaseMs);
      if (removed.expiredJobs > 0) deps.log('info', 'removed reports whose links have expired', { reports: removed.expiredJobs });
      if (removed.parts > 0) deps.log('info', 'removed stored report parts', { parts: removed.parts, bytes: removed.bytes });
      if (removed.files.length > 0) deps.log('info', 'removed report files left in DATA_DIR/reports by an older release', { files: removed.files });
    } catch (error) {
      // Only tidying: the jobs go on regardless, and the next sweep tries again.
      deps.log('warn', 'stored reports not swept', { error: error instanceof Error ? error.message : String(error) });
    }
  };
  const queue: JobQueue = { name: 'report', runDue };
  const periodic: PeriodicJob = { name: 'report.sweep', everyMs: options.sweepMs, atStart: true, run: sweep };
  const runner = createJobRunner({
    db: deps.db,
    clock: deps.clock,
    log: (level, message, fields) => deps.log(level === 'info' ? 'info' : 'warn', message, fields),
    queues: [queue],
    periodic: [periodic],
    options: { pollMs: options.pollMs },
  });

  return {
    runDue: () => runDue(),
    sweep,
    queue,
    periodic,
    start: runner.start,
    /** Stops taking jobs and waits for the one in hand. */
    stop: runner.stop,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
export type ReportWorker = ReturnType<typeof createReportWorker>;
