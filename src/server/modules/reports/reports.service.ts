import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  REPORT_COLUMNS,
  type CampaignReportListItem,
  type CampaignReportSummary,
  type ReportCsvRow,
  type ReportFilters,
  type ReportFormat,
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
import type { ClaimedReportJob, MessageRow, ReportCampaign, ReportJobRecord, ReportsRepository, SummaryRow } from './reports.repository';

/** Rows read per query when a whole report is written (the e-mailed CSV, a streamed answer), and queries under way meanwhile (BENCHMARKS.md). */
const CSV_CHUNK = 2_000;
const READ_AHEAD = 1;
/** Characters of CSV a stored part gathers (about a megabyte: few statements, little memory). */
const PART_CHARS = 1 << 20;
/** What releases of Herald before reports lived in the database wrote in DATA_DIR/reports. */
const LEGACY_PARTIAL_SUFFIX = '.csv.part';

/**
 * A report's file name: the campaign's name in ASCII letters, digits, `_`, `.` and `-` (a header
 * carries it), `campaign` when none is left; a filtered report's name ends with its filters
 * (`…-delivery-report-Failed-7700.csv`), so the file says it is not the whole report.
 */
const downloadNameOf = (campaignName: string, type: ReportType, format: ReportFormat, filters: ReportFilters = {}) => {
  const safeName =
    campaignName
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9 _.-]+/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 60) || 'campaign';
  const filtered = [filters.status, filters.reason, filters.search]
    .filter(Boolean)
    .map((value) => `-${value}`)
    .join('');
  return `${safeName}-${type}-report${filtered}.${format}`;
};

/** A CSV stored as its attempt's parts, not yet published as the job's file. */
export type PartialCsv = { jobId: number; attempt: string; fileName: string; rowCount: number; bytes: number };

/** What a read of report rows asks for: the JSON's fields beyond the CSV's columns (`extended`), and a page's filters. */
type RowsWanted = { extended?: boolean; filters?: ReportFilters };

/** The numbering a per-message report pages by. */
const numberingOf = (type: ReportType) => (type === 'unsent' ? 'unsent_sequence' : 'sequence');

export function createReportsService(deps: {
  reports: ReportsRepository;
  users: Pick<UsersRepository, 'findById'>;
  links: ReportLinks;
  clock: Clock;
  config: { appTimezone: string; dataDir: string; publicUrl: string };
  /** Characters of CSV a stored part gathers; smaller only in tests (many parts from a small report). */
  partChars?: number;
}) {
  const partChars = deps.partChars ?? PART_CHARS;
  const zone = deps.config.appTimezone;
  /** Where releases before reports lived in the database kept them: only swept now. */
  const legacyDir = path.join(deps.config.dataDir, 'reports');
  /** The link of a job's report, on the public URL of the API process that received the request. */
  const linkOf = (job: Pick<ReportJobRecord, 'uuid' | 'publicUrl'>, expiresAt: Date) => deps.links.url(job.uuid, expiresAt, job.publicUrl ?? undefined);

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

  /**
   * The rows numbered `first`..`last` (from 1), in the report's stable order; under `filters`, those
   * of them that match. The CSV's columns, and with `extended` the JSON's fields beyond them too.
   */
  const rowsBetween = async <T extends ReportType>(
    campaign: ReportCampaign,
    type: T,
    first: number,
    last: number,
    { extended = false, filters = {} }: RowsWanted = {},
  ): Promise<Array<ReportCsvRow<T>>> => {
    last = Math.min(last, reportTotal(campaign, type));
    if (first > last) return [];
    if (type === 'sent') return [reportRowBuilders(campaign, zone).sent()] as Array<ReportCsvRow<T>>;
    if (type === 'clicks') {
      const build = reportRowBuilders(campaign, zone).clicks;
      return (await deps.reports.clicks(campaign.id, first, last, filters.search)).map(build) as Array<ReportCsvRow<T>>;
    }
    const messages = await deps.reports.messages(campaign.id, numberingOf(type), first, last, type !== 'delivery', filters);
    return messageRows(campaign, type, messages, extended);
  };

  /**
   * A whole report's rows in its order, CSV_CHUNK numbers at a time (each read one index range of the
   * report's numbering; under filters, the rows of the range that match, so a filtered report reads
   * every row of its numbering), the next chunk read while the last one is used. Reads only as far
   * as it is asked, READ_AHEAD chunks ahead: a consumer that waits (a slow client) holds it back, and
   * memory stays flat at a million rows. Holds no database connection between reads: each takes one
   * from the pool and gives it back, so a consumer that stops asking leaves none held.
   */
  async function* rowChunks<T extends ReportType>(campaign: ReportCampaign, type: T, wanted: RowsWanted = {}): AsyncGenerator<Array<ReportCsvRow<T>>> {
    const total = reportTotal(campaign, type);
    const ahead: Array<Promise<Array<ReportCsvRow<T>>>> = [];
    let nextFirst = 1;
    const readAhead = () => {
      while (ahead.length < READ_AHEAD && nextFirst <= total) {
        const read = rowsBetween(campaign, type, nextFirst, nextFirst + CSV_CHUNK - 1, wanted);
        read.catch(() => undefined); // its failure is met when it is awaited, not reported early as unhandled
        ahead.push(read);
        nextFirst += CSV_CHUNK;
      }
    };
    readAhead();
    while (ahead.length > 0) {
      const rows = await ahead.shift()!;
      readAhead();
      if (rows.length > 0) yield rows;
    }
  }

  /**
   * A report as text, a piece per chunk of rows (`rows` counts them). CSV: a byte-order mark (so
   * spreadsheet programs read it as UTF-8) and the header first, then a line per row with exactly the
   * interface's columns. NDJSON: a line per row, the JSON object a report page has for it.
   */
  async function* reportText(type: ReportType, format: ReportFormat, chunks: AsyncIterable<ReportCsvRow<ReportType>[]>) {
    const columns = REPORT_COLUMNS[type] as string[];
    if (format === 'csv') yield { text: `\uFEFF${csvLine(columns)}`, rows: 0 };
    for await (const rows of chunks) {
      let text = '';
      if (format === 'csv') for (const row of rows) text += csvRow(row, columns);
      else for (const row of rows) text += `${JSON.stringify(row)}\n`;
      yield { text, rows: rows.length };
    }
  }

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
      const rows = await rowsBetween(campaign, type, window.offset + 1, window.offset + window.limit, { extended: true });
      return { rows: rows as Array<ReportRow<T>>, total: reportTotal(campaign, type) };
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
      download_url: linkLive ? linkOf(job, job.linkExpiresAt!) : null,
      link_expires_at: formatTimestamp(job.linkExpiresAt, zone),
      created_at: formatTimestamp(job.createdAt, zone),
      updated_at: formatTimestamp(job.updatedAt, zone),
    };
  };

  /**
   * Writes a job's CSV into the database as it streams, chunk by chunk (memory stays flat at a
   * million rows): parts of about a megabyte (`report_file_parts`), each under this attempt's own
   * token, the next rows read and formatted while the last part is stored. Two attempts at one job (a
   * worker taken over while still writing, and its successor) never write the same parts, and
   * nothing is a file yet: the fenced `written` publishes the attempt once the job is known to be
   * ours. Stops when `signal` aborts (the lease was taken over); on any failure the attempt's parts
   * are removed. No file touches the disk.
   */
  const writeCsvAttempt = async (job: ReportJobRecord, attempt: string, signal?: AbortSignal): Promise<PartialCsv> => {
    signal?.throwIfAborted();
    const campaign = await deps.reports.campaign(job.teamId, job.campaignUuid);
    if (!campaign) throw new NotFoundError('The campaign no longer exists.');
    // A taken-over attempt stops at once, even while it waits on a slow read or write.
    let onAbort = () => {};
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(signal?.reason);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    aborted.catch(() => undefined);
    const out = partWriter(job.id, attempt, aborted);
    // The same text a streamed CSV answers: the next rows are read while the last ones are stored
    // (the database, on its own connections, and this process work side by side).
    const text = reportText(job.type, 'csv', rowChunks(campaign, job.type, { filters: job.filters }));
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
      await deps.reports.discardParts(job.id, attempt);
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    return { jobId: job.id, attempt, fileName: `${job.uuid}.csv`, rowCount, bytes: out.bytes() };
  };

  /**
   * Text in, parts of about `partChars` out, stored under (job, attempt) numbered from 0. One part is
   * stored while the next is gathered; `write` waits when a second would be in flight (backpressure).
   */
  const partWriter = (jobId: number, attempt: string, aborted: Promise<never>) => {
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
      inFlight = deps.reports.putPart(jobId, attempt, part++, data);
      inFlight.catch(() => undefined); // met at the next flush or at the end
      bytes += data.length;
    };
    return {
      async write(text: string) {
        pending.push(text);
        pendingChars += text.length;
        if (pendingChars >= partChars) await flush();
      },
      async end() {
        if (pendingChars > 0 || part === 0) await flush();
        await Promise.race([inFlight, aborted]);
      },
      /** Waits for the part being stored, whether it lands or fails. */
      settled: () => inFlight.catch(() => undefined),
      bytes: () => bytes,
    };
  };

  /** A stored CSV, part after part, one in memory at a time; fails (the download is cut off) if a part is missing. */
  const streamOf = (job: ReportJobRecord & { fileAttempt: string; fileBytes: number }): Readable =>
    Readable.from(
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

  /** Stores a file of DATA_DIR/reports (written before reports lived in the database) as a job's parts. */
  const importLegacyFile = async (job: ReportJobRecord, file: string): Promise<void> => {
    const attempt = '0';
    await deps.reports.discardParts(job.id, attempt);
    const out = partWriter(job.id, attempt, new Promise<never>(() => {}));
    try {
      for await (const chunk of fs.createReadStream(file, { encoding: 'utf8' })) await out.write(chunk as string);
      await out.end();
    } catch (error) {
      await out.settled();
      await deps.reports.discardParts(job.id, attempt);
      throw error;
    }
    await deps.reports.storeFile(job.id, attempt, { fileName: job.fileName ?? `${job.uuid}.csv`, rowCount: job.rowCount ?? 0, bytes: out.bytes() });
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

    /**
     * Queues the CSV for the calling user; a worker writes it and e-mails the link (POST → 202). Under
     * `filters` (a page's: `status`, `reason`, `search`) the CSV holds only the rows that match, as the
     * filtered page and stream do; the job keeps them, and the e-mail names them.
     */
    async request(auth: AuthContext, campaignUuid: string, type: ReportType, filters: ReportFilters = {}): Promise<string> {
      const campaign = await campaignOf(auth, campaignUuid);
      const user = await deps.users.findById(auth.userId);
      if (!user) throw new NotFoundError();
      // The link will be built on this process's public URL, whichever process writes the report.
      return deps.reports.insertJob(
        { teamId: auth.teamId, userId: auth.userId, campaignId: campaign.id, type, filters, email: user.email, publicUrl: deps.config.publicUrl },
        deps.clock.now(),
      );
    },

    /** A report job the caller asked for in this team (404 otherwise, as for any other team's resource). */
    async job(auth: AuthContext, uuid: string): Promise<ReportJob> {
      const row = await deps.reports.jobOf(auth.userId, auth.teamId, uuid);
      if (!row) throw new NotFoundError();
      return present(row);
    },

    async jobs(auth: AuthContext, window: PageWindow): Promise<{ items: ReportJob[]; total: number }> {
      const { rows, total } = await deps.reports.jobsOf(auth.userId, auth.teamId, window);
      return { items: rows.map(present), total };
    },

    /**
     * The CSV a signed link names, streamed from the database part by part (any process serves it):
     * refused when forged (403) or expired (410); 410 too when the report is no longer kept.
     */
    async download(jobUuid: string, expires: string, signature: string): Promise<{ stream: Readable; bytes: number; downloadName: string }> {
      const verdict = deps.links.check(jobUuid, expires, signature, deps.clock.now());
      if (verdict === 'forged') throw new ForbiddenError('This download link is not valid.');
      if (verdict === 'expired') throw new GoneError(`This download link has expired (links work for ${REPORT_LINK_DAYS} days); request the report again.`);
      const job = await deps.reports.job(jobUuid);
      if (!job?.fileName) throw new NotFoundError();
      const { fileAttempt, fileBytes } = job;
      if (fileAttempt === null || fileBytes === null) throw new GoneError('This report file is no longer kept; request the report again.');
      return {
        stream: streamOf({ ...job, fileAttempt, fileBytes }),
        bytes: fileBytes,
        downloadName: downloadNameOf(job.campaignName, job.type, 'csv', job.filters),
      };
    },

    /**
     * A whole report as text for an answer to stream (`GET /reporting/{uuid}/{type}.csv|.ndjson`):
     * the CSV the report e-mail carries, or NDJSON (a line per row, each as a report page has it),
     * under a page's filters, in the report's order, read as the answer is sent (rowChunks). The
     * campaign is looked up and the first rows read before this returns, so an unknown campaign or a
     * failing first read is still an error answer, never the start of a file.
     */
    async stream(
      auth: AuthContext,
      campaignUuid: string,
      type: ReportType,
      format: ReportFormat,
      filters: ReportFilters = {},
    ): Promise<{ fileName: string; text: AsyncIterable<string> }> {
      const campaign = await campaignOf(auth, campaignUuid);
      const rows = rowChunks(campaign, type, { extended: format === 'ndjson', filters });
      const first = await rows.next();
      const pieces = reportText(
        type,
        format,
        (async function* () {
          if (!first.done) yield first.value;
          yield* rows;
        })(),
      );
      return {
        fileName: downloadNameOf(campaign.name, type, format, filters),
        text: (async function* () {
          for await (const piece of pieces) yield piece.text;
        })(),
      };
    },

    writeCsvAttempt,

    /** Removes an attempt's stored parts, unless they became the job's file. */
    async discardCsv(csv: Pick<PartialCsv, 'jobId' | 'attempt'>): Promise<void> {
      await deps.reports.discardParts(csv.jobId, csv.attempt);
    },

    /** Writes a claimed job's CSV and publishes it at once, without the fencing of the worker (benchmarks, one-off runs). */
    async writeCsv(job: ClaimedReportJob): Promise<PartialCsv> {
      const csv = await writeCsvAttempt(job, job.lease.token);
      await deps.reports.storeFile(job.id, csv.attempt, csv);
      return csv;
    },

    /**
     * Removes what no link reaches any more (the repository's sweepParts): the stored reports whose
     * links have expired, and the parts of attempts that can never publish. Then tidies
     * DATA_DIR/reports, where releases before this one wrote reports as files: a report whose link
     * still works is moved into the database (so any process serves it) and its file removed; any
     * other report or partial file is removed, but a partial file touched within `partialAgeMs` (an
     * older release's worker may still be writing it). Nothing else there is touched. File times are the file system's, compared with the system's time.
     */
    async sweep(partialAgeMs: number): Promise<{ expiredJobs: number; parts: number; bytes: number; files: string[] }> {
      const swept = await deps.reports.sweepParts(deps.clock.now());
      const names = await fs.promises.readdir(legacyDir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
        throw error;
      });
      const files: string[] = [];
      // Only what those releases wrote there: `<job>.csv` and `<job>.<attempt>.csv.part`.
      for (const name of names.filter((n) => n.endsWith('.csv') || n.endsWith(LEGACY_PARTIAL_SUFFIX))) {
        const file = path.join(legacyDir, name);
        const stat = await fs.promises.stat(file).catch(() => undefined);
        if (!stat?.isFile()) continue;
        if (name.endsWith(LEGACY_PARTIAL_SUFFIX)) {
          if (stat.mtimeMs > Date.now() - partialAgeMs) continue;
        } else {
          const uuid = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.csv$/i.exec(name)?.[1];
          const job = uuid ? await deps.reports.job(uuid) : undefined;
          if (job && job.fileAttempt === null && job.linkExpiresAt !== null && job.linkExpiresAt > deps.clock.now()) await importLegacyFile(job, file);
        }
        await fs.promises.rm(file, { force: true });
        files.push(name);
      }
      return { ...swept, files };
    },

    /** The signed link of a job's report, on the public URL stored with the job (the API's that received the request). */
    linkFor(job: Pick<ReportJobRecord, 'uuid' | 'publicUrl'>, expiresAt: Date): string {
      return linkOf(job, expiresAt);
    },
  };
}
export type ReportsService = ReturnType<typeof createReportsService>;
