import { Readable } from 'node:stream';
import { ForbiddenError, GoneError, NotFoundError } from '../../lib/errors';
import type { Clock } from '../../lib/time';
import { REPORT_LINK_DAYS, type ReportLinks } from './report-links';
import { downloadNameOf } from './report-reading';
import type { ReportJobRecord, ReportJobsRepository } from './report-jobs.repository';

/**
 * Download links: the signed link of a job's CSV, and the download it leads to, checked against
 * its signature and expiry (report-links.ts signs and checks) and streamed from the stored parts.
 */
export type ReportDownloads = { reports: Pick<ReportJobsRepository, 'job' | 'part'>; links: ReportLinks; clock: Clock };

/** The signed link of a job's report, on the public URL stored with the job (the API's that received the request). */
export const reportLinkOf = (deps: Pick<ReportDownloads, 'links'>, job: Pick<ReportJobRecord, 'uuid' | 'publicUrl'>, expiresAt: Date): string =>
  deps.links.url(job.uuid, expiresAt, job.publicUrl ?? undefined);

/** A stored CSV, part after part, one in memory at a time; fails (the download is cut off) if a part is missing. */
function streamOf(deps: Pick<ReportDownloads, 'reports'>, job: ReportJobRecord & { fileAttempt: string; fileBytes: number }): Readable {
  return Readable.from(
    (async function* () {
      let sent = 0;
      for (let part = 0; ; part++) {
        const data = await deps.reports.part(job.id, job.fileAttempt, part);
        if (!data) break;
        sent += data.length;
        yield data;
      }
      if (sent !== job.fileBytes) throw new Error(`report ${job.uuid}: ${sent} of ${job.fileBytes} bytes stored`);
    })(),
    { objectMode: false },
  );
}

/**
 * The CSV a signed link names, streamed from the database part by part (any process serves it):
 * refused when forged (403) or expired (410); 410 too when the report is no longer kept.
 */
export async function downloadReport(
  deps: ReportDownloads,
  jobUuid: string,
  expires: string,
  signature: string,
): Promise<{ stream: Readable; bytes: number; downloadName: string }> {
  const verdict = deps.links.check(jobUuid, expires, signature, deps.clock.now());
  if (verdict === 'forged') throw new ForbiddenError('This download link is not valid.');
  if (verdict === 'expired') throw new GoneError(`This download link has expired (links work for ${REPORT_LINK_DAYS} days); request the report again.`);
  const job = await deps.reports.job(jobUuid);
  if (!job?.fileName) throw new NotFoundError();
  const { fileAttempt, fileBytes } = job;
  if (fileAttempt === null || fileBytes === null) throw new GoneError('This report file is no longer kept; request the report again.');
  return {
    stream: streamOf(deps, { ...job, fileAttempt, fileBytes }),
    bytes: fileBytes,
    downloadName: downloadNameOf(job.campaignName, job.type, 'csv', job.filters),
  };
}
