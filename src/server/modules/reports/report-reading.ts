import {
  REPORT_COLUMNS,
  type CampaignReportListItem,
  type CampaignReportSummary,
  type ReportCsvRow,
  type ReportFilters,
  type ReportFormat,
  type ReportRow,
  type ReportType,
} from '../../../shared/contract';
import type { PageWindow } from '../../db/pages';
import type { AuthContext } from '../../http/auth';
import { csvLine, csvRow } from '../../lib/csv';
import { NotFoundError } from '../../lib/errors';
import { reportRowBuilders, reportRowExtensions, reportTotal } from './report-rows';
import type { MessageRow, ReportCampaign, ReportReadsRepository, SummaryRow } from './report-reads.repository';

/**
 * Reading reports: a page, a summary, the list of summaries, and a whole report as text (streamed
 * to a client, or written by a CSV job). Each function takes what it reads with: the repository's
 * reads and the zone times are shown in.
 */
export type ReportReading = { reports: ReportReadsRepository; zone: string };

/** Rows read per query when a whole report is written (the e-mailed CSV, a streamed answer), and queries under way meanwhile (BENCHMARKS.md). */
const CSV_CHUNK = 2_000;
const READ_AHEAD = 1;

/** What a read of report rows asks for: the JSON's fields beyond the CSV's columns (`extended`), and a page's filters. */
export type RowsWanted = { extended?: boolean; filters?: ReportFilters };

/** The numbering a per-message report pages by. */
const numberingOf = (type: ReportType) => (type === 'unsent' ? 'unsent_sequence' : 'sequence');

/**
 * A report's file name: the campaign's name in ASCII letters, digits, `_`, `.` and `-` (a header
 * carries it), `campaign` when none is left; a filtered report's name ends with its filters
 * (`…-delivery-report-Failed-7700.csv`), so the file says it is not the whole report.
 */
export const downloadNameOf = (campaignName: string, type: ReportType, format: ReportFormat, filters: ReportFilters = {}) => {
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

/** The team's campaign, or 404. */
export async function campaignOf(deps: Pick<ReportReading, 'reports'>, auth: AuthContext, uuid: string): Promise<ReportCampaign> {
  const campaign = await deps.reports.campaign(auth.teamId, uuid);
  if (!campaign) throw new NotFoundError();
  return campaign;
}

/** Groups the messages name that are not among the campaign's own (a group edited out after sending). */
async function withGroupsOf(deps: ReportReading, campaign: ReportCampaign, messages: Array<{ contact_group_id: number | null }>) {
  const missing = [...new Set(messages.map((m) => m.contact_group_id).filter((id): id is number => id !== null && !campaign.groups.has(Number(id))))];
  if (missing.length === 0) return campaign.groups;
  return new Map([...campaign.groups, ...(await deps.reports.groups(missing.map(Number)))]);
}

/** Report rows of messages; with `extended`, the JSON's fields beyond the CSV's columns too. */
async function messageRows<T extends ReportType>(deps: ReportReading, campaign: ReportCampaign, type: T, messages: MessageRow[], extended: boolean) {
  const build = reportRowBuilders(campaign, deps.zone, await withGroupsOf(deps, campaign, messages))[
    type as 'delivery' | 'alt_delivery' | 'recipient' | 'unsent'
  ];
  const extend = extended ? reportRowExtensions(deps.zone, campaign.variants)[type as 'delivery' | 'alt_delivery'] : undefined;
  return messages.map((m) => (extend ? { ...build(m), ...extend(m) } : build(m))) as Array<ReportCsvRow<T>>;
}

/**
 * The rows numbered `first`..`last` (from 1), in the report's stable order; under `filters`, those
 * of them that match. The CSV's columns, and with `extended` the JSON's fields beyond them too.
 */
async function rowsBetween<T extends ReportType>(
  deps: ReportReading,
  campaign: ReportCampaign,
  type: T,
  first: number,
  last: number,
  { extended = false, filters = {} }: RowsWanted = {},
): Promise<Array<ReportCsvRow<T>>> {
  last = Math.min(last, reportTotal(campaign, type));
  if (first > last) return [];
  if (type === 'sent') return [reportRowBuilders(campaign, deps.zone).sent()] as Array<ReportCsvRow<T>>;
  if (type === 'clicks') {
    const build = reportRowBuilders(campaign, deps.zone).clicks;
    return (await deps.reports.clicks(campaign.id, first, last, filters.search)).map(build) as Array<ReportCsvRow<T>>;
  }
  const messages = await deps.reports.messages(campaign.id, numberingOf(type), first, last, type !== 'delivery', filters);
  return messageRows(deps, campaign, type, messages, extended);
}

/**
 * A whole report's rows in its order, CSV_CHUNK numbers at a time (each read one index range of the
 * report's numbering; under filters, the rows of the range that match, so a filtered report reads
 * every row of its numbering), the next chunk read while the last one is used. Reads only as far
 * as it is asked, READ_AHEAD chunks ahead: a consumer that waits (a slow client) holds it back, and
 * memory stays flat at a million rows. Holds no database connection between reads: each takes one
 * from the pool and gives it back, so a consumer that stops asking leaves none held.
 */
export async function* rowChunks<T extends ReportType>(
  deps: ReportReading,
  campaign: ReportCampaign,
  type: T,
  wanted: RowsWanted = {},
): AsyncGenerator<Array<ReportCsvRow<T>>> {
  const total = reportTotal(campaign, type);
  const ahead: Array<Promise<Array<ReportCsvRow<T>>>> = [];
  let nextFirst = 1;
  const readAhead = () => {
    while (ahead.length < READ_AHEAD && nextFirst <= total) {
      const read = rowsBetween(deps, campaign, type, nextFirst, nextFirst + CSV_CHUNK - 1, wanted);
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
export async function* reportText(type: ReportType, format: ReportFormat, chunks: AsyncIterable<ReportCsvRow<ReportType>[]>) {
  const columns = REPORT_COLUMNS[type] as string[];
  if (format === 'csv') yield { text: `\uFEFF${csvLine(columns)}`, rows: 0 };
  for await (const rows of chunks) {
    let text = '';
    if (format === 'csv') for (const row of rows) text += csvRow(row, columns);
    else for (const row of rows) text += `${JSON.stringify(row)}\n`;
    yield { text, rows: rows.length };
  }
}

/**
 * One page of a report as JSON, filtered or not; `total` counts the rows under the filter.
 * Unfiltered, an index range on the report's numbering with the total from the campaign's counters,
 * as fast deep as on page 1; filtered, a read of the campaign's messages (or clicks) that tests
 * each, and one count under the same filter (the repository says what that costs).
 */
export async function reportPage<T extends ReportType>(
  deps: ReportReading,
  auth: AuthContext,
  campaignUuid: string,
  type: T,
  window: PageWindow,
  filters: ReportFilters = {},
): Promise<{ rows: Array<ReportRow<T>>; total: number }> {
  const campaign = await campaignOf(deps, auth, campaignUuid);
  const filtered = type !== 'sent' && (filters.status !== undefined || filters.reason !== undefined || filters.search !== undefined);
  if (!filtered) {
    const rows = await rowsBetween(deps, campaign, type, window.offset + 1, window.offset + window.limit, { extended: true });
    return { rows: rows as Array<ReportRow<T>>, total: reportTotal(campaign, type) };
  }
  // Before sending there are no rows to filter.
  if (campaign.status === 0) return { rows: [], total: 0 };
  if (type === 'clicks') {
    const { rows, total } = await deps.reports.filteredClicks(campaign.id, filters.search!, window);
    return { rows: rows.map(reportRowBuilders(campaign, deps.zone).clicks) as Array<ReportRow<T>>, total };
  }
  const { rows, total } = await deps.reports.filteredMessages(campaign.id, numberingOf(type), filters, window, type !== 'delivery');
  return { rows: (await messageRows(deps, campaign, type, rows, true)) as Array<ReportRow<T>>, total };
}

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

/**
 * What a campaign's reports add up to: its delivery report's rows by Status (`delivered`,
 * `failed`, `expired`, `pending`), its unsent and clicks reports' rows, clicks by people and by
 * link-preview bots, the recipients who clicked, its opt-outs, and the rates of each.
 */
export async function reportSummary(deps: Pick<ReportReading, 'reports'>, auth: AuthContext, campaignUuid: string): Promise<CampaignReportSummary> {
  const row = await deps.reports.summary(auth.teamId, campaignUuid);
  if (!row) throw new NotFoundError();
  const expired = row.expired ?? 0;
  // Failed rows are failed messages not expired, and unsent ones not `pending` (deliveryStatus).
  return { ...summaryOf(row), failed: row.failedCount + row.unsent - expired, expired };
}

/** The summaries of the team's campaigns that have started, last started first (without the failed/expired split). */
export async function reportSummaries(
  deps: Pick<ReportReading, 'reports'>,
  auth: AuthContext,
  window: PageWindow,
  search?: string,
): Promise<{ items: CampaignReportListItem[]; total: number }> {
  const { rows, total } = await deps.reports.summaries(auth.teamId, window, search);
  return { items: rows.map(summaryOf), total };
}

/**
 * A whole report as text for an answer to stream (`GET /reporting/{uuid}/{type}.csv|.ndjson`):
 * the CSV the report e-mail carries, or NDJSON (a line per row, each as a report page has it),
 * under a page's filters, in the report's order, read as the answer is sent (rowChunks). The
 * campaign is looked up and the first rows read before this returns, so an unknown campaign or a
 * failing first read is still an error answer, never the start of a file.
 */
export async function reportStream(
  deps: ReportReading,
  auth: AuthContext,
  campaignUuid: string,
  type: ReportType,
  format: ReportFormat,
  filters: ReportFilters = {},
): Promise<{ fileName: string; text: AsyncIterable<string> }> {
  const campaign = await campaignOf(deps, auth, campaignUuid);
  const rows = rowChunks(deps, campaign, type, { extended: format === 'ndjson', filters });
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
}
