import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { DeliveryStatus, ReportFilters } from '../../../shared/contract';
import type { Db } from '../../db/client';
import { countOf, readPage, type Page, type PageWindow } from '../../db/pages';
import { firstRowOf, MomentSchema, rowsOf } from '../../db/rows';
import { containsText } from '../../db/search';
import { MESSAGE_CONNECTION_COLUMNS } from '../../lib/message-connections';

const GroupSchema = z.object({ id: z.number(), name: z.string(), description: z.string().nullable(), headers: z.array(z.string()) });

/** What every report of a campaign needs besides its rows (its groups as the statement reads them). */
const ReportCampaignRowSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  sender: z.string(),
  status: z.number(),
  expiryDate: MomentSchema,
  startedSendingAt: z.string().nullable(),
  messageCount: z.number(),
  unsentCount: z.number(),
  clickCount: z.number(),
  templateUuid: z.string(),
  templateName: z.string(),
  templateBody: z.string(),
  groups: z.array(GroupSchema),
  /** An A/B test's variants by position (a message's `variant`), each with the sender it sends from. */
  variants: z.array(z.object({ name: z.string(), sender: z.string() })),
});
export type ReportCampaign = Omit<z.output<typeof ReportCampaignRowSchema>, 'groups'> & {
  /** The campaign's included groups (and any group its messages name), by id. */
  groups: Map<number, { name: string; description: string | null; headers: string[] }>;
};

/** A message as the per-message reports read it; times as epoch milliseconds (cheap to read at a million rows). */
const MessageRowSchema = z.object({
  n: z.number(),
  uuid: z.string(),
  phone_number: z.string(),
  /** Null when not asked for. */
  custom_fields: z.record(z.string(), z.string()).nullable(),
  status: z.string(),
  reason: z.string().nullable(),
  body: z.string().nullable(),
  submitted_at: z.number().nullable(),
  finished_at: z.number().nullable(),
  contact_group_id: z.number().nullable(),
  /** Whether one of the team's SMS connections carried it; that connection (null once deleted), and the message's gateway id there. */
  routed: z.boolean(),
  connection_uuid: z.string().nullable(),
  connection_name: z.string().nullable(),
  connection_provider: z.string().nullable(),
  gateway_id: z.string().nullable(),
  /** The A/B test variant it carried (null without a test). */
  variant: z.number().nullable(),
});
export type MessageRow = z.output<typeof MessageRowSchema>;

const ClickRowSchema = z.object({
  n: z.number(),
  phone_number: z.string(),
  link_name: z.string(),
  destination: z.string(),
  clicked_at: z.number(),
  user_agent: z.string().nullable(),
  device_type: z.string().nullable(),
  os_version: z.string().nullable(),
  browser_version: z.string().nullable(),
});
export type ClickRow = z.output<typeof ClickRowSchema>;

/** A campaign's report summary as the statement reads it: its counters, and what is counted beside them. */
const SummaryRowSchema = z.object({
  uuid: z.string(),
  name: z.string(),
  sender: z.string(),
  status: z.number(),
  startedSendingAt: z.string(),
  finishedSendingAt: z.string(),
  messages: z.number(),
  sent: z.number(),
  delivered: z.number(),
  failedCount: z.number(),
  unsent: z.number(),
  clicksTotal: z.number(),
  clicksHuman: z.number(),
  uniqueHumanClickers: z.number(),
  optOuts: z.number(),
  /** Rows of the delivery report whose Status is Expired; null when not counted (a list). */
  expired: z.number().nullable(),
});
export type SummaryRow = z.output<typeof SummaryRowSchema>;
const ListedSummaryRowSchema = SummaryRowSchema.extend({ total: z.number() });

/**
 * The delivery reports' `Status` as a condition on `messages m`: the SQL of `deliveryStatus`
 * (report-rows.ts). The filter tests check that every row a filter returns has that Status.
 */
const STATUS_CONDITIONS: Record<DeliveryStatus, SQL> = {
  Success: sql`m.status = 'delivered'`,
  Pending: sql`m.status IN ('queued', 'submitted')`,
  Expired: sql`((m.status = 'unsent' AND m.reason = 'pending') OR (m.status = 'failed' AND m.reason = 'Expired'))`,
  Failed: sql`((m.status = 'unsent' AND m.reason IS DISTINCT FROM 'pending') OR (m.status = 'failed' AND m.reason IS DISTINCT FROM 'Expired'))`,
};

// A float8 is read as a number; a timestamptz would be parsed into a Date, several times slower.
// date_part, not extract: extract computes in numeric, slower at a million rows.
const epochMs = (column: ReturnType<typeof sql.raw>) => sql`date_part('epoch', ${column}) * 1000`;

/** A MessageRow's columns of `messages m`, numbered by `n` (sequence or unsent_sequence); custom fields only when asked. */
const messageColumns = (n: SQL, withFields: boolean) =>
  sql`${n} AS n, m.uuid, m.phone_number, ${withFields ? sql`m.custom_fields` : sql`NULL`} AS custom_fields, m.status, m.reason, m.body,
      ${epochMs(sql.raw('m.submitted_at'))} AS submitted_at, ${epochMs(sql.raw('m.finished_at'))} AS finished_at, m.contact_group_id, m.variant,
      ${MESSAGE_CONNECTION_COLUMNS}`;

/**
 * `messages m` with the connection that carried each (`sc`): read-only, and left, since
 * `messages.connection_id` has no foreign key (a deleted connection leaves its messages' rows).
 */
const MESSAGES_FROM = sql`messages m LEFT JOIN sms_connections sc ON sc.id = m.connection_id`;

/** The recipient's number contains the digits (checked to be digits by the contract: no LIKE wildcard can come in). */
const numberContains = (column: SQL, digits: string) => sql`${column} LIKE ${`%${digits}%`}`;

/** A per-message report's filters as conditions on `messages m` (none when there is none to apply). */
function messageFilters(filters: ReportFilters): SQL[] {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(STATUS_CONDITIONS[filters.status]);
  // An unsent message without a reason is listed as `pending` (report-rows.ts).
  if (filters.reason) conditions.push(sql`coalesce(m.reason, 'pending') = ${filters.reason}`);
  if (filters.search) conditions.push(numberContains(sql`m.phone_number`, filters.search));
  return conditions;
}

/** The clicks report's rows of `link_clicks k` (with the link and message each click names), numbered by the clicks' sequence. */
const CLICK_COLUMNS = sql`k.sequence AS n, m.phone_number, s.link_name, s.destination, ${epochMs(sql.raw('k.clicked_at'))} AS clicked_at,
  k.user_agent, k.device_type, k.os_version, k.browser_version`;
const CLICKS_FROM = sql`link_clicks k JOIN short_links s ON s.code = k.code JOIN messages m ON m.id = s.message_id`;

/**
 * Report rows straight from the engine's rows. Each read is an index range: messages by
 * (campaign, sequence), unsent messages by (campaign, unsent_sequence), clicks by (campaign, sequence).
 */
/** `optOutsOf`: the opt-outs a campaign led to, as a SQL count over the campaign's id (the suppression list's `optOutsOfCampaign`). */
export function createReportReadsRepository(db: Db, timeZone: string, optOutsOf: (campaignId: SQL) => SQL) {
  const local = (column: ReturnType<typeof sql.raw>) => sql`to_char(${column} AT TIME ZONE ${timeZone}, 'YYYY-MM-DD HH24:MI:SS')`;

  /**
   * A campaign's summary from `campaigns c`, read from its counters: its messages by state, its clicks
   * (`click_count`, and of them people's, not link-preview bots': `human_click_count`, with
   * `human_clicker_count` the messages — one per recipient — a person clicked at least once; kept as
   * clicks come, migration 0030) and its opt-outs (`optOutsOf`, by index). `withExpired` adds the
   * delivery report's `Expired` rows: the unsent `pending` ones through the unsent index, and — only
   * for a campaign that expired with failures — the failed `Expired` ones, which only a read of all its
   * messages finds (about 1 s for a million messages on the loaded 2-core machine of the filter
   * measurements below; the list, without it, reads counters only).
   */
  const summaryColumns = (withExpired: boolean) => sql`
    c.uuid, c.name, c.sender, c.status,
    coalesce(${local(sql.raw('c.started_sending_at'))}, '') AS "startedSendingAt",
    coalesce(${local(sql.raw('c.finished_sending_at'))}, '') AS "finishedSendingAt",
    c.message_count AS messages, c.submitted_count + c.delivered_count + c.failed_count AS sent, c.delivered_count AS delivered,
    c.failed_count AS "failedCount", c.unsent_count AS unsent,
    c.click_count AS "clicksTotal", c.human_click_count AS "clicksHuman", c.human_clicker_count AS "uniqueHumanClickers",
    ${optOutsOf(sql`c.id`)} AS "optOuts",
    ${
      withExpired
        ? sql`(SELECT count(*)::int FROM messages m WHERE m.campaign_id = c.id AND m.unsent_sequence IS NOT NULL AND m.reason = 'pending')
              + CASE WHEN c.expired_at IS NOT NULL AND c.failed_count > 0
                     THEN (SELECT count(*)::int FROM messages m WHERE m.campaign_id = c.id AND m.status = 'failed' AND m.reason = 'Expired') ELSE 0 END`
        : sql`NULL::int`
    } AS expired`;

  return {
    async campaign(teamId: number, uuid: string): Promise<ReportCampaign | undefined> {
      const row = await firstRowOf(
        db,
        ReportCampaignRowSchema,
        sql`
        SELECT c.id, c.uuid, c.name, c.sender, c.status, c.expiry_date AS "expiryDate",
               ${local(sql.raw('c.started_sending_at'))} AS "startedSendingAt",
               c.message_count AS "messageCount", c.unsent_count AS "unsentCount", c.click_count AS "clickCount",
               t.uuid AS "templateUuid", t.name AS "templateName", t.body AS "templateBody",
               coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'description', g.description, 'headers', g.headers))
                           FROM contact_groups g WHERE g.id IN (SELECT contact_group_id FROM campaign_groups WHERE campaign_id = c.id)), '[]') AS groups,
               coalesce((SELECT json_agg(json_build_object('name', v.name, 'sender', coalesce(v.sender, c.sender)) ORDER BY v.position)
                           FROM campaign_variants v WHERE v.campaign_id = c.id), '[]') AS variants
          FROM campaigns c JOIN templates t ON t.id = c.template_id
         WHERE c.team_id = ${teamId} AND c.uuid = ${uuid.toLowerCase()}`,
      );
      if (!row) return undefined;
      return { ...row, groups: new Map(row.groups.map((g) => [g.id, { name: g.name, description: g.description, headers: g.headers }])) };
    },

    /** A group a message names that is no longer among the campaign's groups (edited since); usually none. */
    async groups(ids: number[]): Promise<Map<number, { name: string; description: string | null; headers: string[] }>> {
      if (ids.length === 0) return new Map();
      const rows = await rowsOf(
        db,
        GroupSchema,
        sql`
        SELECT id, name, description, headers FROM contact_groups WHERE id = ANY(${sql.param(ids)}::bigint[])`,
      );
      return new Map(rows.map((g) => [g.id, { name: g.name, description: g.description, headers: g.headers }]));
    },

    /**
     * Messages numbered `first`..`last` (by sequence, or by unsent_sequence for the unsent report);
     * with `filters`, only those of the range that match them (a whole report streamed under a
     * filter reads its numbering range by range, testing each message). Without `withFields`,
     * custom fields are not read (the delivery report has none: a third of its cost).
     */
    async messages(
      campaignId: number,
      numbering: 'sequence' | 'unsent_sequence',
      first: number,
      last: number,
      withFields = true,
      filters: ReportFilters = {},
    ): Promise<MessageRow[]> {
      const n = sql.raw(`m.${numbering}`);
      const where = sql.join([sql`m.campaign_id = ${campaignId}`, sql`${n} BETWEEN ${first} AND ${last}`, ...messageFilters(filters)], sql` AND `);
      return rowsOf(
        db,
        MessageRowSchema,
        sql`
        SELECT ${messageColumns(n, withFields)}
          FROM ${MESSAGES_FROM}
         WHERE ${where}
         ORDER BY ${n}`,
      );
    },

    /**
     * A filtered page of a per-message report (`status`, `reason`, `search`), in the report's order, and
     * its total under the same filter. Unlike the unfiltered pages (index ranges on the numbering),
     * this reads the campaign's messages through (campaign_id, sequence) — or the unsent ones through
     * (campaign_id, unsent_sequence) — and tests each: the page costs what the rows skipped to reach
     * it cost, and the count, run once beside the page, every message of the campaign (the unsent
     * report: every unsent one). No index serves a filter on purpose: every index on messages is paid
     * for by each of a message's writes, and an index on status or reason would stop its settling
     * updates from being HOT. Measured on a campaign of a million messages (5 % failed), on the
     * 2-core machine while other work ran: 0.4–0.9 s a filtered page, against 45–60 ms for an
     * unfiltered one in the same run (3 ms on a quiet machine, BENCHMARKS.md); 1.5 s for a search
     * that matches a single number, since both statements then read every message.
     */
    filteredMessages(
      campaignId: number,
      numbering: 'sequence' | 'unsent_sequence',
      filters: ReportFilters,
      window: PageWindow,
      withFields = true,
    ): Promise<Page<MessageRow>> {
      const n = sql.raw(`m.${numbering}`);
      const conditions = [sql`m.campaign_id = ${campaignId}`];
      if (numbering === 'unsent_sequence') conditions.push(sql`m.unsent_sequence IS NOT NULL`);
      const where = sql.join([...conditions, ...messageFilters(filters)], sql` AND `);
      return readPage({
        rows: rowsOf(
          db,
          MessageRowSchema,
          sql`
          SELECT ${messageColumns(n, withFields)}
            FROM ${MESSAGES_FROM}
           WHERE ${where}
           ORDER BY ${n} LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM messages m WHERE ${where}`),
      });
    },

    /** A page of the clicks whose recipient's number contains `search`, and their total: the campaign's clicks read in order and tested (see filteredMessages). */
    filteredClicks(campaignId: number, search: string, window: PageWindow): Promise<Page<ClickRow>> {
      const where = sql`k.campaign_id = ${campaignId} AND ${numberContains(sql`m.phone_number`, search)}`;
      return readPage({
        rows: rowsOf(
          db,
          ClickRowSchema,
          sql`SELECT ${CLICK_COLUMNS} FROM ${CLICKS_FROM} WHERE ${where} ORDER BY k.sequence LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM ${CLICKS_FROM} WHERE ${where}`),
      });
    },

    /** One campaign's report summary (see summaryColumns for its cost). */
    summary: (teamId: number, uuid: string): Promise<SummaryRow | undefined> =>
      firstRowOf(db, SummaryRowSchema, sql`SELECT ${summaryColumns(true)} FROM campaigns c WHERE c.team_id = ${teamId} AND c.uuid = ${uuid.toLowerCase()}`),

    /**
     * The summaries of the team's campaigns that have started (send tests aside), last started first,
     * a page and its total in one statement of counters (a page past the end counts again). `expired`
     * is not counted here: it would read every message of each campaign on the page.
     */
    async summaries(teamId: number, window: PageWindow, search?: string): Promise<Page<SummaryRow>> {
      const conditions = [sql`c.team_id = ${teamId}`, sql`c.started_sending_at IS NOT NULL`, sql`NOT c.is_test`];
      if (search) conditions.push(containsText(sql`c.name`, search));
      const where = sql.join(conditions, sql` AND `);
      const page = await readPage({
        rows: rowsOf(
          db,
          ListedSummaryRowSchema,
          sql`
          WITH listed AS (
            SELECT c.*, count(*) OVER ()::int AS total FROM campaigns c WHERE ${where}
             ORDER BY c.started_sending_at DESC, c.id DESC LIMIT ${window.limit} OFFSET ${window.offset})
          SELECT ${summaryColumns(false)}, c.total FROM listed c ORDER BY c.started_sending_at DESC, c.id DESC`,
        ),
        count: () => countOf(db, sql`SELECT count(*)::int AS total FROM campaigns c WHERE ${where}`),
        totalOn: (row) => row.total,
      });
      return { rows: page.rows.map(({ total: _, ...row }) => row), total: page.total };
    },

    /** Clicks numbered `first`..`last`; with `search`, only those of the range whose recipient's number contains it. */
    async clicks(campaignId: number, first: number, last: number, search?: string): Promise<ClickRow[]> {
      const conditions = [sql`k.campaign_id = ${campaignId}`, sql`k.sequence BETWEEN ${first} AND ${last}`];
      if (search) conditions.push(numberContains(sql`m.phone_number`, search));
      return rowsOf(db, ClickRowSchema, sql`SELECT ${CLICK_COLUMNS} FROM ${CLICKS_FROM} WHERE ${sql.join(conditions, sql` AND `)} ORDER BY k.sequence`);
    },
  };
}
export type ReportReadsRepository = ReturnType<typeof createReportReadsRepository>;
