import fs from 'node:fs';
import path from 'node:path';
import type { ReportFilters, ReportJob, ReportType } from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { NotFoundError } from '../../lib/errors';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { AuditTrail } from '../audit/audit-trail';
import type { UsersRepository } from '../users/users.repository';
import { reportLinkOf, type ReportDownloads } from './report-downloads';
import type { ClaimedReportJob, ReportJobRecord, ReportJobsRepository } from './report-jobs.repository';
import { campaignOf, reportText, rowChunks, type ReportReading } from './report-reading';

/**
 * CSV jobs: a report a user asks to have e-mailed (the request, the job as the user follows it), the
 * CSV its worker writes into the database (report-worker.ts claims the job and sends the e-mail),
 * and the sweep of what no link reaches any more.
 */
export type ReportCsvJobs = {
  db: Db;
  /** Records the request of a report in the job's transaction. */
  audit: AuditTrail;
  /** The reads a CSV is written from, and the job's own statements. */
  reading: ReportReading;
  jobs: ReportJobsRepository;
  users: Pick<UsersRepository, 'findById'>;
  links: ReportDownloads['links'];
  clock: Clock;
  zone: string;
  /** This process's public URL (the link is built on the URL of the process that received the request). */
  publicUrl: string;
  /** Where releases before reports lived in the database kept them: only swept now. */
  legacyDir: string;
  /** Characters of CSV a stored part gathers. */
  partChars: number;
};

/** Characters of CSV a stored part gathers (about a megabyte: few statements, little memory). */
export const PART_CHARS = 1 << 20;
/** What releases of Herald before reports lived in the database wrote in DATA_DIR/reports. */
const LEGACY_PARTIAL_SUFFIX = '.csv.part';

/** A CSV stored as its attempt's parts, not yet published as the job's file. */
export type PartialCsv = { jobId: number; attempt: string; fileName: string; rowCount: number; bytes: number };

/**
 * Queues the CSV for the calling user; a worker writes it and e-mails the link (POST → 202). Under
 * `filters` (a page's: `status`, `reason`, `search`) the CSV holds only the rows that match, as the
 * filtered page and stream do; the job keeps them, and the e-mail names them.
 */
export async function requestReport(
  deps: Pick<ReportCsvJobs, 'db' | 'audit' | 'reading' | 'jobs' | 'users' | 'clock' | 'publicUrl'>,
  auth: AuthContext,
  campaignUuid: string,
  type: ReportType,
  filters: ReportFilters = {},
): Promise<string> {
  const campaign = await campaignOf(deps.reading, auth, campaignUuid);
  const user = await deps.users.findById(auth.userId);
  if (!user) throw new NotFoundError();
  return deps.db.transaction(async (tx) => {
    // The link will be built on this process's public URL, whichever process writes the report.
    const job = await deps.jobs.insertJob(
      { teamId: auth.teamId, userId: auth.userId, campaignId: campaign.id, type, filters, email: user.email, publicUrl: deps.publicUrl },
      deps.clock.now(),
      tx,
    );
    // Recorded on the campaign's report, as the request names it (its answer has no body).
    await deps.audit.record(tx, auth, { resourceType: 'report', resourceUuid: campaignUuid, changes: {} });
    return job;
  });
}

type Presenting = Pick<ReportCsvJobs, 'links' | 'clock' | 'zone'>;

const present = (deps: Presenting, job: ReportJobRecord): ReportJob => {
  const linkLive = job.fileAttempt !== null && job.linkExpiresAt !== null && job.linkExpiresAt > deps.clock.now();
  return {
    uuid: job.uuid,
    campaign_uuid: job.campaignUuid,
    campaign_name: job.campaignName,
    type: job.type,
    filters: job.filters,
    status: job.status,
    email: job.email,
    row_count: job.rowCount,
    error: job.error,
    download_url: linkLive ? reportLinkOf(deps, job, job.linkExpiresAt!) : null,
    link_expires_at: formatTimestamp(job.linkExpiresAt, deps.zone),
    created_at: formatTimestamp(job.createdAt, deps.zone),
    updated_at: formatTimestamp(job.updatedAt, deps.zone),
  };
};

/** A report job the caller asked for in this team (404 otherwise, as for any other team's resource). */
export async function reportJob(deps: Presenting & Pick<ReportCsvJobs, 'jobs'>, auth: AuthContext, uuid: string): Promise<ReportJob> {
  const row = await deps.jobs.jobOf(auth.userId, auth.teamId, uuid);
  if (!row) throw new NotFoundError();
  return present(deps, row);
}

/** The report jobs the caller asked for in this team, last first. */
export async function reportJobs(
  deps: Presenting & Pick<ReportCsvJobs, 'jobs'>,
  auth: AuthContext,
  window: PageWindow,
): Promise<{ items: ReportJob[]; total: number }> {
  const { rows, total } = await deps.jobs.jobsOf(auth.userId, auth.teamId, window);
  return { items: rows.map((row) => present(deps, row)), total };
}

/**
 * Text in, parts of about `partChars` out, stored under (job, attempt) numbered from 0. One part is
 * stored while the next is gathered; `write` waits when a second would be in flight (backpressure).
 */
function partWriter(deps: Pick<ReportCsvJobs, 'jobs' | 'partChars'>, jobId: number, attempt: string, aborted: Promise<never>) {
  let pending: string[] = [];
  let pendingChars = 0;
  let part = 0;
  let bytes = 0;
  let inFlight: Promise<void> = Promise.resolve();
  const flush = async () => {
    const data = Buffer.from(pending.join(''), 'utf8');
    pending = [];
    pendingChars = 0;
    await Promise.race([inFlight, aborted]);
    inFlight = deps.jobs.putPart(jobId, attempt, part++, data);
    inFlight.catch(() => undefined); // met at the next flush or at the end
    bytes += data.length;
  };
  return {
    async write(text: string) {
      pending.push(text);
      pendingChars += text.length;
      if (pendingChars >= deps.partChars) await flush();
    },
    async end() {
      if (pendingChars > 0 || part === 0) await flush();
      await Promise.race([inFlight, aborted]);
    },
    /** Waits for the part being stored, whether it lands or fails. */
    settled: () => inFlight.catch(() => undefined),
    bytes: () => bytes,
  };
}

/**
 * Writes a job's CSV into the database as it streams, chunk by chunk (memory stays flat at a
 * million rows): parts of about a megabyte (`report_file_parts`), each under this attempt's own
 * token, the next rows read and formatted while the last part is stored. Two attempts at one job (a
 * worker taken over while still writing, and its successor) never write the same parts, and
 * nothing is a file yet: the fenced `written` publishes the attempt once the job is known to be
 * ours. Stops when `signal` aborts (the lease was taken over); on any failure the attempt's parts
 * are removed. No file touches the disk.
 */
export async function writeCsvAttempt(
  deps: Pick<ReportCsvJobs, 'reading' | 'jobs' | 'partChars'>,
  job: ReportJobRecord,
  attempt: string,
  signal?: AbortSignal,
): Promise<PartialCsv> {
  signal?.throwIfAborted();
  const campaign = await deps.reading.reports.campaign(job.teamId, job.campaignUuid);
  if (!campaign) throw new NotFoundError('The campaign no longer exists.');
  // A taken-over attempt stops at once, even while it waits on a slow read or write.
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  const out = partWriter(deps, job.id, attempt, aborted);
  // The same text a streamed CSV answers: the next rows are read while the last ones are stored
  // (the database, on its own connections, and this process work side by side).
  const text = reportText(job.type, 'csv', rowChunks(deps.reading, campaign, job.type, { filters: job.filters }));
  let rowCount = 0;
  try {
    for (;;) {
      const reading = text.next();
      reading.catch(() => undefined); // when the abort wins, a later failure of the read is no one's to meet
      const next = await Promise.race([reading, aborted]);
      if (next.done) break;
      rowCount += next.value.rows;
      await out.write(next.value.text);
    }
    await out.end();
  } catch (error) {
    // Its parts go, once the one being stored (if any) has landed: none is left behind by this attempt.
    await out.settled();
    await deps.jobs.discardParts(job.id, attempt);
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return { jobId: job.id, attempt, fileName: `${job.uuid}.csv`, rowCount, bytes: out.bytes() };
}

/** Writes a claimed job's CSV and publishes it at once, without the fencing of the worker (benchmarks, one-off runs). */
export async function writeCsv(deps: Pick<ReportCsvJobs, 'reading' | 'jobs' | 'partChars'>, job: ClaimedReportJob): Promise<PartialCsv> {
  const csv = await writeCsvAttempt(deps, job, job.lease.token);
  await deps.jobs.storeFile(job.id, csv.attempt, csv);
  return csv;
}

/** Stores a file of DATA_DIR/reports (written before reports lived in the database) as a job's parts. */
async function importLegacyFile(deps: Pick<ReportCsvJobs, 'jobs' | 'partChars'>, job: ReportJobRecord, file: string): Promise<void> {
  const attempt = '0';
  await deps.jobs.discardParts(job.id, attempt);
  const out = partWriter(deps, job.id, attempt, new Promise<never>(() => {}));
  try {
    for await (const chunk of fs.createReadStream(file, { encoding: 'utf8' })) await out.write(chunk as string);
    await out.end();
  } catch (error) {
    await out.settled();
    await deps.jobs.discardParts(job.id, attempt);
    throw error;
  }
  await deps.jobs.storeFile(job.id, attempt, { fileName: job.fileName ?? `${job.uuid}.csv`, rowCount: job.rowCount ?? 0, bytes: out.bytes() });
}

/**
 * Removes what no link reaches any more (the repository's sweepParts): the stored reports whose
 * links have expired, and the parts of attempts that can never publish. Then tidies
 * DATA_DIR/reports, where releases before this one wrote reports as files: a report whose link
 * still works is moved into the database (so any process serves it) and its file removed; any
 * other report or partial file is removed, but a partial file touched within `partialAgeMs` (an
 * older release's worker may still be writing it). Nothing else there is touched. File times are the file system's, compared with the system's time.
 */
export async function sweepReports(
  deps: Pick<ReportCsvJobs, 'jobs' | 'clock' | 'legacyDir' | 'partChars'>,
  partialAgeMs: number,
): Promise<{ expiredJobs: number; parts: number; bytes: number; files: string[] }> {
  const swept = await deps.jobs.sweepParts(deps.clock.now());
  const names = await fs.promises.readdir(deps.legacyDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
    throw error;
  });
  const files: string[] = [];
  // Only what those releases wrote there: `<job>.csv` and `<job>.<attempt>.csv.part`.
  for (const name of names.filter((n) => n.endsWith('.csv') || n.endsWith(LEGACY_PARTIAL_SUFFIX))) {
    const file = path.join(deps.legacyDir, name);
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat?.isFile()) continue;
    if (name.endsWith(LEGACY_PARTIAL_SUFFIX)) {
      if (stat.mtimeMs > Date.now() - partialAgeMs) continue;
    } else {
      const uuid = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.csv$/i.exec(name)?.[1];
      const job = uuid ? await deps.jobs.job(uuid) : undefined;
      if (job && job.fileAttempt === null && job.linkExpiresAt !== null && job.linkExpiresAt > deps.clock.now()) await importLegacyFile(deps, job, file);
    }
    await fs.promises.rm(file, { force: true });
    files.push(name);
  }
  return { ...swept, files };
}
