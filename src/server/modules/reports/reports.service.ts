import path from 'node:path';
import type { Readable } from 'node:stream';
import type { CampaignReportListItem, CampaignReportSummary, ReportFilters, ReportFormat, ReportJob, ReportRow, ReportType } from '../../../shared/contract';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import type { Clock } from '../../lib/time';
import type { UsersRepository } from '../users/users.repository';
import {
  PART_CHARS,
  reportJob,
  reportJobs,
  requestReport,
  sweepReports,
  writeCsv,
  writeCsvAttempt,
  type PartialCsv,
  type ReportCsvJobs,
} from './report-csv-jobs';
import { downloadReport, reportLinkOf, type ReportDownloads } from './report-downloads';
import type { Db } from '../../db/client';
import type { AuditTrail } from '../audit/audit-trail';
import type { ReportLinks } from './report-links';
import { reportPage, reportStream, reportSummaries, reportSummary, type ReportReading } from './report-reading';
import type { ClaimedReportJob, ReportJobRecord, ReportsRepository } from './reports.repository';

export type { PartialCsv } from './report-csv-jobs';

/**
 * The reports service as the routes, the worker and services.ts see it: a thin composition of its
 * three jobs, each a file of top-level functions with its dependencies spelt out: reading the
 * reports (report-reading.ts), the e-mailed CSV jobs (report-csv-jobs.ts) and the download links
 * (report-downloads.ts).
 */
export function createReportsService(deps: {
  db: Db;
  audit: AuditTrail;
  reports: ReportsRepository;
  users: Pick<UsersRepository, 'findById'>;
  links: ReportLinks;
  clock: Clock;
  config: { appTimezone: string; dataDir: string; publicUrl: string };
  /** Characters of CSV a stored part gathers; smaller only in tests (many parts from a small report). */
  partChars?: number;
}) {
  const reading: ReportReading = { reports: deps.reports, zone: deps.config.appTimezone };
  const downloads: ReportDownloads = { reports: deps.reports, links: deps.links, clock: deps.clock };
  const csvJobs: ReportCsvJobs = {
    db: deps.db,
    audit: deps.audit,
    reading,
    jobs: deps.reports,
    users: deps.users,
    links: deps.links,
    clock: deps.clock,
    zone: deps.config.appTimezone,
    publicUrl: deps.config.publicUrl,
    legacyDir: path.join(deps.config.dataDir, 'reports'),
    partChars: deps.partChars ?? PART_CHARS,
  };

  return {
    page: <T extends ReportType>(
      auth: AuthContext,
      campaignUuid: string,
      type: T,
      window: PageWindow,
      filters?: ReportFilters,
    ): Promise<{ rows: Array<ReportRow<T>>; total: number }> => reportPage(reading, auth, campaignUuid, type, window, filters),
    summary: (auth: AuthContext, campaignUuid: string): Promise<CampaignReportSummary> => reportSummary(reading, auth, campaignUuid),
    summaries: (auth: AuthContext, window: PageWindow, search?: string): Promise<{ items: CampaignReportListItem[]; total: number }> =>
      reportSummaries(reading, auth, window, search),
    stream: (
      auth: AuthContext,
      campaignUuid: string,
      type: ReportType,
      format: ReportFormat,
      filters?: ReportFilters,
    ): Promise<{ fileName: string; text: AsyncIterable<string> }> => reportStream(reading, auth, campaignUuid, type, format, filters),

    request: (auth: AuthContext, campaignUuid: string, type: ReportType, filters?: ReportFilters): Promise<string> =>
      requestReport(csvJobs, auth, campaignUuid, type, filters),
    job: (auth: AuthContext, uuid: string): Promise<ReportJob> => reportJob(csvJobs, auth, uuid),
    jobs: (auth: AuthContext, window: PageWindow): Promise<{ items: ReportJob[]; total: number }> => reportJobs(csvJobs, auth, window),
    writeCsvAttempt: (job: ReportJobRecord, attempt: string, signal?: AbortSignal): Promise<PartialCsv> => writeCsvAttempt(csvJobs, job, attempt, signal),
    /** Removes an attempt's stored parts, unless they became the job's file. */
    discardCsv: (csv: Pick<PartialCsv, 'jobId' | 'attempt'>): Promise<void> => deps.reports.discardParts(csv.jobId, csv.attempt),
    writeCsv: (job: ClaimedReportJob): Promise<PartialCsv> => writeCsv(csvJobs, job),
    sweep: (partialAgeMs: number): Promise<{ expiredJobs: number; parts: number; bytes: number; files: string[] }> => sweepReports(csvJobs, partialAgeMs),

    download: (jobUuid: string, expires: string, signature: string): Promise<{ stream: Readable; bytes: number; downloadName: string }> =>
      downloadReport(downloads, jobUuid, expires, signature),
    linkFor: (job: Pick<ReportJobRecord, 'uuid' | 'publicUrl'>, expiresAt: Date): string => reportLinkOf(downloads, job, expiresAt),
  };
}
export type ReportsService = ReturnType<typeof createReportsService>;
