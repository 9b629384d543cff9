import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import {
  REPORT_COLUMNS,
  type CampaignReportListItem,
  type CampaignReportSummary,
  type ReportCsvRow,
  type ReportFilters,
  type ReportJob,
  type ReportRow,
  type ReportType,
} from '../../../shared/contract';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { ForbiddenError, GoneError, NotFoundError } from '../../lib/errors';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { UsersRepository } from '../users/users.repository';
import { csvLine, csvRow } from '../../lib/csv';
import { REPORT_LINK_DAYS, type ReportLinks } from './report-links';
import { reportRowBuilders, reportRowExtensions, reportTotal } from './report-rows';
import type { MessageRow, ReportCampaign, ReportJobRecord, ReportsRepository, SummaryRow } from './reports.repository';

/** Rows read per query when a report is written to CSV, and queries under way while one is written (BENCHMARKS.md). */
const CSV_CHUNK = 2_000;
const READ_AHEAD = 1;
const PARTIAL_SUFFIX = '.csv.part';

/** A CSV written under its attempt's partial name, not yet in place. */
export type PartialCsv = { fileName: string; rowCount: number; partialPath: string };

/** The numbering a per-message report pages by. */
const numberingOf = (type: ReportType) => (type === 'unsent' ? 'unsent_sequence' : 'sequence');

export function createReportsService(deps: {
  reports: ReportsRepository;
  users: Pick<UsersRepository, 'findById'>;
  links: ReportLinks;
  clock: Clock;
  config: { appTimezone: string; dataDir: string };
}) {
  const zone = deps.config.appTimezone;
  const reportsDir = path.join(deps.config.dataDir, 'reports');

  const campaignOf = async (auth: AuthContext, uuid: string) => {
    const campaign = await deps.reports.campaign(auth.teamId, uuid);
    if (!campaign) throw new NotFoundError();
    return campaign;
  };

  /** Groups the messages name that are not among the campaign's own (a group edited out after sending). */
  const withGroupsOf = async (campaign: ReportCampaign, messages: Array<{ contact_group_id: number | null }>) => {
    const missing = [...new Set(messages.map((m) => m.contact_group_id).filter((id): id is number => id !== null && !campaign.groups.has(Number(id))))];
    if (missing.length === 0) return campaign.groups;
    return new Map([...campaign.groups, ...(await deps.reports.groups(missing.map(Number)))]);
  };

  /** The CSV rows numbered `first`..`last` (from 1), in the report's stable order. */
  const rowsBetween = async <T extends ReportType>(campaign: ReportCampaign, type: T, first: number, last: number): Promise<Array<ReportCsvRow<T>>> => {
    const total = reportTotal(campaign, type);
    last = Math.min(last, total);
    if (first > last) return [];
    if (type === 'sent') return [reportRowBuilders(campaign, zone).sent()] as Array<ReportCsvRow<T>>;
    if (type === 'clicks') {
      const build = reportRowBuilders(campaign, zone).clicks;
      return (await deps.reports.clicks(campaign.id, first, last)).map(build) as Array<ReportCsvRow<T>>;
    }
    const messages = await deps.reports.messages(campaign.id, numberingOf(type), first, last, type !== 'delivery');
    return messageRows(campaign, type, messages, false);
  };

  /** Report rows of messages; with `extended`, the JSON's fields beyond the CSV's columns too. */
  const messageRows = async <T extends ReportType>(campaign: ReportCampaign, type: T, messages: MessageRow[], extended: boolean) => {
    const build = reportRowBuilders(campaign, zone, await withGroupsOf(campaign, messages))[type as 'delivery' | 'alt_delivery' | 'recipient' | 'unsent'];
    const extend = extended ? reportRowExtensions(zone)[type as 'delivery' | 'alt_delivery'] : undefined;
    return messages.map((m) => (extend ? { ...build(m), ...extend(m) } : build(m))) as Array<ReportCsvRow<T>>;
  };

  /**
   * A page of a report as JSON. Unfiltered, an index range on the report's numbering with the total
   * from the campaign's counters, as fast deep as on page 1; filtered, a read of the campaign's
   * messages (or clicks) that tests each, and one count under the same filter (the repository says
   * what that costs).
   */
  const pageOf = async <T extends ReportType>(
    campaign: ReportCampaign,
    type: T,
    window: PageWindow,
    filters: ReportFilters,
  ): Promise<{ rows: Array<ReportRow<T>>; total: number }> => {
    const filtered = type !== 'sent' && (filters.status !== undefined || filters.reason !== undefined || filters.search !== undefined);
    if (!filtered) {
      const total = reportTotal(campaign, type);
      const first = window.offset + 1;
      const last = Math.min(window.offset + window.limit, total);
      if (first > last || type === 'sent' || type === 'clicks') return { rows: (await rowsBetween(campaign, type, first, last)) as Array<ReportRow<T>>, total };
      const messages = await deps.reports.messages(campaign.id, numberingOf(type), first, last, type !== 'delivery');
      return { rows: (await messageRows(campaign, type, messages, true)) as Array<ReportRow<T>>, total };
    }
    // Before sending there are no rows to filter.
    if (campaign.status === 0) return { rows: [], total: 0 };
    if (type === 'clicks') {
      const { rows, total } = await deps.reports.filteredClicks(campaign.id, filters.search!, window);
      return { rows: rows.map(reportRowBuilders(campaign, zone).clicks) as Array<ReportRow<T>>, total };
    }
    const { rows, total } = await deps.reports.filteredMessages(campaign.id, numberingOf(type), filters, window, type !== 'delivery');
    return { rows: (await messageRows(campaign, type, rows, true)) as Array<ReportRow<T>>, total };
  };

  /** Rates are shares of what they are a share of; null when that is nothing. */
  const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);

  const summaryOf = (row: SummaryRow): CampaignReportListItem => {
    const pending = Math.max(0, row.messages - row.delivered - row.failedCount - row.unsent);
    return {
      campaign_uuid: row.uuid,
      name: row.name,
      sender: row.sender,
      status: row.status,
      started_sending_at: row.startedSendingAt,
      finished_sending_at: row.finishedSendingAt,
      messages: row.messages,
      sent: row.sent,
      delivered: row.delivered,
      pending,
      unsent: row.unsent,
      clicks_total: row.clicksTotal,
      clicks_human: row.clicksHuman,
      clicks_bot: row.clicksTotal - row.clicksHuman,
      unique_human_clickers: row.uniqueHumanClickers,
      delivery_rate: share(row.delivered, row.sent),
      click_rate: share(row.uniqueHumanClickers, row.delivered),
      opt_outs: row.optOuts,
      opt_out_rate: share(row.optOuts, row.delivered),
    };
  };

  const present = (job: ReportJobRecord): ReportJob => {
    const linkLive = job.fileName !== null && job.linkExpiresAt !== null && job.linkExpiresAt > deps.clock.now();
    return {
      uuid: job.uuid,
      campaign_uuid: job.campaignUuid,
      campaign_name: job.campaignName,
      type: job.type,
      status: job.status,
      email: job.email,
      row_count: job.rowCount,
      error: job.error,
      download_url: linkLive ? deps.links.url(job.uuid, job.linkExpiresAt!) : null,
      link_expires_at: formatTimestamp(job.linkExpiresAt, zone),
      created_at: formatTimestamp(job.createdAt, zone),
      updated_at: formatTimestamp(job.updatedAt, zone),
    };
  };

  /**
   * Writes a job's CSV into DATA_DIR/reports, streaming chunk by chunk (memory stays flat at a
   * million rows), under a partial name of this attempt's own (`<job>.<attempt>.csv.part`): two
   * attempts at one job (a worker taken over while still writing, and its successor) never write
   * the same file. Nothing is put in place: `publishCsv` does that once the job is known to be
   * ours. Stops when `signal` aborts (the lease was taken over); on any failure the partial file
   * is removed.
   */
  const writeCsvAttempt = async (job: ReportJobRecord, attempt: string, signal?: AbortSignal): Promise<PartialCsv> => {
    signal?.throwIfAborted();
    const campaign = await deps.reports.campaign(job.teamId, job.campaignUuid);
    if (!campaign) throw new NotFoundError('The campaign no longer exists.');
    await fs.promises.mkdir(reportsDir, { recursive: true });
    const fileName = `${job.uuid}.csv`;
    const partialPath = path.join(reportsDir, `${job.uuid}.${attempt}${PARTIAL_SUFFIX}`);
    const out = fs.createWriteStream(partialPath);
    const failed = new Promise<never>((_, reject) => out.once('error', reject));
    failed.catch(() => undefined);
    // A taken-over attempt stops at once, even while it waits on a slow read.
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal?.reason);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    const write = async (text: string) => {
      if (!out.write(text)) await Promise.race([once(out, 'drain'), failed, aborted]);
    };
    const columns = REPORT_COLUMNS[job.type] as string[];
    let rowCount = 0;
    // Chunks are read ahead while earlier ones are written: the database (on its own connections)
    // and this process work side by side.
    const ahead: Array<Promise<Array<Record<string, string | number | null>>>> = [];
    try {
      // A byte-order mark so spreadsheet programs read the file as UTF-8.
      await write(`\uFEFF${csvLine(columns)}`);
      const total = reportTotal(campaign, job.type);
      let nextFirst = 1;
      const readAhead = () => {
        while (ahead.length < READ_AHEAD && nextFirst <= total) {
          const read = rowsBetween(campaign, job.type, nextFirst, nextFirst + CSV_CHUNK - 1) as Promise<Array<Record<string, string | number | null>>>;
          read.catch(() => undefined); // its failure is met when it is awaited, not reported early as unhandled
          ahead.push(read);
          nextFirst += CSV_CHUNK;
        }
      };
      readAhead();
      while (ahead.length > 0) {
        const rows = await Promise.race([ahead.shift()!, aborted]);
        readAhead();
        let text = '';
        for (const row of rows) text += csvRow(row, columns);
        rowCount += rows.length;
        await write(text);
      }
      out.end();
      await Promise.race([once(out, 'finish'), failed, aborted]);
    } catch (error) {
      out.destroy();
      await fs.promises.rm(partialPath, { force: true });
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    return { fileName, rowCount, partialPath };
  };

  /** Puts a written CSV in place under its final name; atomic, so a download never sees half a file. */
  const publishCsv = async (csv: PartialCsv): Promise<void> => {
    await fs.promises.rename(csv.partialPath, path.join(reportsDir, csv.fileName));
  };

  return {
    /** One page of a report, filtered or not; `total` counts the rows under the filter. */
    async page<T extends ReportType>(
      auth: AuthContext,
      campaignUuid: string,
      type: T,
      window: PageWindow,
      filters: ReportFilters = {},
    ): Promise<{ rows: Array<ReportRow<T>>; total: number }> {
      return pageOf(await campaignOf(auth, campaignUuid), type, window, filters);
    },

    /**
     * What a campaign's reports add up to: its delivery report's rows by Status (`delivered`,
     * `failed`, `expired`, `pending`), its unsent and clicks reports' rows, clicks by people and by
     * link-preview bots, the recipients who clicked, its opt-outs, and the rates of each.
     */
    async summary(auth: AuthContext, campaignUuid: string): Promise<CampaignReportSummary> {
      const row = await deps.reports.summary(auth.teamId, campaignUuid);
      if (!row) throw new NotFoundError();
      const expired = row.expired ?? 0;
      // Failed rows are failed messages not expired, and unsent ones not `pending` (deliveryStatus).
      return { ...summaryOf(row), failed: row.failedCount + row.unsent - expired, expired };
    },

    /** The summaries of the team's campaigns that have started, last started first (without the failed/expired split). */
    async summaries(auth: AuthContext, window: PageWindow, search?: string): Promise<{ items: CampaignReportListItem[]; total: number }> {
      const { rows, total } = await deps.reports.summaries(auth.teamId, window, search);
      return { items: rows.map(summaryOf), total };
    },

    /** Queues the CSV for the calling user; a worker writes it and e-mails the link (POST → 202). */
    async request(auth: AuthContext, campaignUuid: string, type: ReportType): Promise<void> {
      const campaign = await campaignOf(auth, campaignUuid);
      const user = await deps.users.findById(auth.userId);
      if (!user) throw new NotFoundError();
      await deps.reports.insertJob({ teamId: auth.teamId, userId: auth.userId, campaignId: campaign.id, type, email: user.email }, deps.clock.now());
    },

    async jobs(auth: AuthContext, window: PageWindow): Promise<{ items: ReportJob[]; total: number }> {
      const { rows, total } = await deps.reports.jobsOf(auth.userId, auth.teamId, window);
      return { items: rows.map(present), total };
    },

    /** The CSV a signed link names: refused when forged (403) or expired (410). */
    async download(jobUuid: string, expires: string, signature: string): Promise<{ filePath: string; downloadName: string }> {
      const verdict = deps.links.check(jobUuid, expires, signature, deps.clock.now());
      if (verdict === 'forged') throw new ForbiddenError('This download link is not valid.');
      if (verdict === 'expired') throw new GoneError(`This download link has expired (links work for ${REPORT_LINK_DAYS} days); request the report again.`);
      const job = await deps.reports.job(jobUuid);
      if (!job?.fileName) throw new NotFoundError();
      const filePath = path.join(reportsDir, job.fileName);
      if (!fs.existsSync(filePath)) throw new GoneError('This report file is no longer kept; request the report again.');
      const safeName =
        job.campaignName
          .replace(/[^\p{L}\p{N} _.-]+/gu, '')
          .trim()
          .replace(/\s+/g, '-')
          .slice(0, 60) || 'campaign';
      return { filePath, downloadName: `${safeName}-${job.type}-report.csv` };
    },

    writeCsvAttempt,
    publishCsv,

    /** Removes an attempt's partial file (nothing to do once it was published). */
    async discardCsv(csv: Pick<PartialCsv, 'partialPath'>): Promise<void> {
      await fs.promises.rm(csv.partialPath, { force: true });
    },

    /** Writes a job's CSV and puts it in place at once, outside any lease (benchmarks, one-off runs). */
    async writeCsv(job: ReportJobRecord): Promise<{ fileName: string; rowCount: number }> {
      const csv = await writeCsvAttempt(job, randomUUID());
      await publishCsv(csv);
      return { fileName: csv.fileName, rowCount: csv.rowCount };
    },

    /**
     * Removes partial files left by attempts that died (a crash, a kill -9) and were not touched for
     * `olderThanMs`: a live attempt writes its file as it goes, and is fenced anyway. File times are
     * the file system's, so this compares them with the system's time, not the job clock.
     */
    async sweepPartials(olderThanMs: number): Promise<string[]> {
      const names = await fs.promises.readdir(reportsDir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
        throw error;
      });
      const removed: string[] = [];
      for (const name of names.filter((n) => n.endsWith(PARTIAL_SUFFIX))) {
        const file = path.join(reportsDir, name);
        const stat = await fs.promises.stat(file).catch(() => undefined);
        if (!stat || stat.mtimeMs > Date.now() - olderThanMs) continue;
        await fs.promises.rm(file, { force: true });
        removed.push(name);
      }
      return removed;
    },

    linkFor(job: Pick<ReportJobRecord, 'uuid'>, expiresAt: Date): string {
      return deps.links.url(job.uuid, expiresAt);
    },
  };
}
export type ReportsService = ReturnType<typeof createReportsService>;
