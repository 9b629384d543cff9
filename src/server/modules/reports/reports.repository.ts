import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { createReportJobsRepository } from './report-jobs.repository';
import { createReportReadsRepository } from './report-reads.repository';

export type { ClickRow, MessageRow, ReportCampaign, SummaryRow } from './report-reads.repository';
export type { ClaimedReportJob, ReportJobRecord, ReportLease } from './report-jobs.repository';

/**
 * The reports module's SQL, in two homes: the reads of the reports themselves
 * (report-reads.repository.ts) and the CSV jobs with their leases and stored parts
 * (report-jobs.repository.ts). One object with both, for the service, the worker and the tests.
 * `optOutsOf`: the opt-outs a campaign led to, as a SQL count over the campaign's id (the suppression list's `optOutsOfCampaign`).
 */
export function createReportsRepository(db: Db, timeZone: string, optOutsOf: (campaignId: SQL) => SQL) {
  return { ...createReportReadsRepository(db, timeZone, optOutsOf), ...createReportJobsRepository(db) };
}
export type ReportsRepository = ReturnType<typeof createReportsRepository>;
