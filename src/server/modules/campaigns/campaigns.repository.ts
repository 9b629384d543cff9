import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { CAMPAIGN_SORT, type SortFieldOf } from '../../../shared/contract';
import { countOf, orderOf, readPage, teamRowCountOf, type ListOrder, type Page, type PageWindow } from '../../db/pages';
import { containsText } from '../../db/search';
import { HELD_OWNER } from '../../engine/store/unsent';
import { firstRowOf, MomentSchema, oneRowOf, parseRows, rowsOf, type Conn } from '../../db/rows';
import { campaignLifecycle } from './lifecycle';

export type CampaignWrite = {
  templateId: number;
  name: string;
  sender: string;
  scheduledSendDate: Date;
  expiryDate: Date;
  throttled: boolean;
  scheduledFinishDate: Date | null;
  includedGroupIds: number[];
  excludedGroupIds: number[];
  /** Issue 35: the segments it sends to (in order) and skips. */
  includedSegmentIds: number[];
  excludedSegmentIds: number[];
  pauses: Array<{ startAt: Date; endAt: Date }>;
  /** `pending` when the team's approval threshold asks for it (requested by the writer), else `not_required`. */
  approval: { status: 'pending' | 'not_required'; requestedBy: number | null };
  /** Never started while true. */
  isDraft: boolean;
  /** Sends through the team's quiet hours. */
  ignoreQuietHours: boolean;
};

/** One query reads a campaign whole: its template's uuid, its groups in order and its pauses. */
const SELECT = sql`
  SELECT c.id, c.uuid, t.uuid AS "teamUuid", c.template_id AS "templateId", tp.uuid AS "templateUuid", c.name, c.sender,
         c.scheduled_send_date AS "scheduledSendDate", c.expiry_date AS "expiryDate", c.status, c.throttled,
         c.scheduled_finish_date AS "scheduledFinishDate", c.manually_paused AS "manuallyPaused", c.is_test AS "isTest",
         c.started_sending_at AS "startedSendingAt", c.finished_sending_at AS "finishedSendingAt",
         c.created_at AS "createdAt", c.updated_at AS "updatedAt",
         c.approval_status AS "approvalStatus", c.approval_requested_by::int AS "approvalRequestedById",
         (SELECT json_build_object('uuid', u.uuid, 'name', u.name) FROM users u WHERE u.id = c.approval_requested_by) AS "approvalRequestedBy",
         (SELECT json_build_object('uuid', u.uuid, 'name', u.name) FROM users u WHERE u.id = c.approval_decided_by) AS "approvalDecidedBy",
         c.approval_requested_at AS "approvalRequestedAt", c.approval_decided_at AS "approvalDecidedAt", c.approval_comment AS "approvalComment",
         c.approval_recipients AS "approvalRecipients", c.approval_notice AS "approvalNotice", c.created_by::int AS "createdById",
         c.is_draft AS "isDraft", c.ignore_quiet_hours AS "ignoreQuietHours", c.stopped_at AS "stoppedAt", c.expired_at AS "expiredAt",
         (SELECT json_build_object('uuid', u.uuid, 'name', u.name) FROM users u WHERE u.id = c.stopped_by) AS "stoppedBy",
         coalesce((SELECT array_agg(g.uuid::text ORDER BY cg.position) FROM campaign_groups cg JOIN contact_groups g ON g.id = cg.contact_group_id
                    WHERE cg.campaign_id = c.id AND cg.kind = 'included'), '{}') AS included,
         coalesce((SELECT array_agg(g.uuid::text ORDER BY cg.position) FROM campaign_groups cg JOIN contact_groups g ON g.id = cg.contact_group_id
                    WHERE cg.campaign_id = c.id AND cg.kind = 'excluded'), '{}') AS excluded,
         coalesce((SELECT array_agg(s.uuid::text ORDER BY cs.position) FROM campaign_segments cs JOIN segments s ON s.id = cs.segment_id
                    WHERE cs.campaign_id = c.id AND cs.kind = 'included'), '{}') AS "includedSegments",
         coalesce((SELECT array_agg(s.uuid::text ORDER BY cs.position) FROM campaign_segments cs JOIN segments s ON s.id = cs.segment_id
                    WHERE cs.campaign_id = c.id AND cs.kind = 'excluded'), '{}') AS "excludedSegments",
         coalesce((SELECT json_agg(json_build_object('uuid', p.uuid, 'startAt', p.start_at, 'endAt', p.end_at, 'createdAt', p.created_at, 'updatedAt', p.updated_at) ORDER BY p.start_at)
                     FROM campaign_pauses p WHERE p.campaign_id = c.id), '[]') AS pauses
    FROM campaigns c JOIN teams t ON t.id = c.team_id JOIN templates tp ON tp.id = c.template_id`;

const UserRefSchema = z.object({ uuid: z.string(), name: z.string() });
const PauseSchema = z.object({ uuid: z.string(), startAt: MomentSchema, endAt: MomentSchema, createdAt: MomentSchema, updatedAt: MomentSchema });

/** A row of SELECT: a campaign whole. */
const CampaignRecordSchema = z.object({
  id: z.number(),
  uuid: z.string(),
  teamUuid: z.string(),
  templateId: z.number(),
  templateUuid: z.string(),
  name: z.string(),
  sender: z.string(),
  scheduledSendDate: MomentSchema,
  expiryDate: MomentSchema,
  status: z.number(),
  throttled: z.boolean(),
  scheduledFinishDate: MomentSchema.nullable(),
  manuallyPaused: z.boolean().nullable(),
  isTest: z.boolean(),
  startedSendingAt: MomentSchema.nullable(),
  finishedSendingAt: MomentSchema.nullable(),
  createdAt: MomentSchema,
  updatedAt: MomentSchema,
  approvalStatus: z.enum(['not_required', 'pending', 'approved', 'rejected']),
  approvalRequestedById: z.number().nullable(),
  approvalRequestedBy: UserRefSchema.nullable(),
  approvalDecidedBy: UserRefSchema.nullable(),
  approvalRequestedAt: MomentSchema.nullable(),
  approvalDecidedAt: MomentSchema.nullable(),
  approvalComment: z.string().nullable(),
  approvalRecipients: z.number().nullable(),
  approvalNotice: z.string().nullable(),
  createdById: z.number().nullable(),
  isDraft: z.boolean(),
  ignoreQuietHours: z.boolean(),
  stoppedAt: MomentSchema.nullable(),
  stoppedBy: UserRefSchema.nullable(),
  expiredAt: MomentSchema.nullable(),
  included: z.array(z.string()),
  excluded: z.array(z.string()),
  includedSegments: z.array(z.string()),
  excludedSegments: z.array(z.string()),
  pauses: z.array(PauseSchema),
});
export type CampaignRecord = z.output<typeof CampaignRecordSchema>;

const IdSchema = z.object({ id: z.number() });
// bigint[] elements arrive as text (the int8 parser is for single values).
const GroupIdsSchema = z.object({ kind: z.string(), ids: z.array(z.coerce.number()) });
const CountsSchema = z.object({
  total: z.number(),
  queued: z.number(),
  submitted: z.number(),
  delivered: z.number(),
  failed: z.number(),
  unsent: z.number(),
  clicks: z.number(),
  humanClicks: z.number(),
  inDoubt: z.number(),
  heldForQuietHours: z.number(),
});

/** The filters of `GET /campaigns/`; `search` is contained in the name, ignoring case. */
export type CampaignListFilters = { status?: number; approval?: string; includeTests?: boolean; templateUuid?: string; search?: string };

/** The list's `sort` (CAMPAIGN_SORT); its default is the index's order (team, newest first). */
const ORDER: ListOrder<SortFieldOf<typeof CAMPAIGN_SORT>> = {
  sort: CAMPAIGN_SORT,
  columns: { created_at: sql`c.created_at`, updated_at: sql`c.updated_at`, name: sql`lower(c.name)`, scheduled_send_date: sql`c.scheduled_send_date` },
  tiebreak: sql`c.id`,
};

export function createCampaignsRepository(db: Db) {
  const writeChildren = async (tx: Tx, campaignId: number, write: CampaignWrite, now: Date) => {
    await tx.execute(sql`DELETE FROM campaign_groups WHERE campaign_id = ${campaignId}`);
    await tx.execute(sql`DELETE FROM campaign_pauses WHERE campaign_id = ${campaignId}`);
    await tx.execute(sql`DELETE FROM campaign_segments WHERE campaign_id = ${campaignId}`);
    const segmentRows = [
      ...write.includedSegmentIds.map((id, position) => ({ id, kind: 'included', position })),
      ...write.excludedSegmentIds.map((id, position) => ({ id, kind: 'excluded', position })),
    ];
    if (segmentRows.length > 0)
      await tx.execute(sql`
        INSERT INTO campaign_segments (campaign_id, segment_id, kind, position)
        SELECT ${campaignId}, id, kind, position
          FROM unnest(${sql.param(segmentRows.map((g) => g.id))}::bigint[], ${sql.param(segmentRows.map((g) => g.kind))}::text[], ${sql.param(segmentRows.map((g) => g.position))}::int[]) AS t(id, kind, position)`);
    const groups = [
      ...write.includedGroupIds.map((id, position) => ({ id, kind: 'included', position })),
      ...write.excludedGroupIds.map((id, position) => ({ id, kind: 'excluded', position })),
    ];
    if (groups.length > 0)
      await tx.execute(sql`
        INSERT INTO campaign_groups (campaign_id, contact_group_id, kind, position)
        SELECT ${campaignId}, id, kind, position
          FROM unnest(${sql.param(groups.map((g) => g.id))}::bigint[], ${sql.param(groups.map((g) => g.kind))}::text[], ${sql.param(groups.map((g) => g.position))}::int[]) AS t(id, kind, position)`);
    if (write.pauses.length > 0)
      await tx.execute(sql`
        INSERT INTO campaign_pauses (campaign_id, start_at, end_at, created_at, updated_at)
        SELECT ${campaignId}, s, e, ${now}, ${now}
          FROM unnest(${sql.param(write.pauses.map((p) => p.startAt.toISOString()))}::timestamptz[], ${sql.param(write.pauses.map((p) => p.endAt.toISOString()))}::timestamptz[]) AS t(s, e)`);
  };

  const one = (where: SQL, conn: Conn = db) => firstRowOf(conn, CampaignRecordSchema, sql`${SELECT} WHERE ${where}`);

  // The most read campaign query (the dashboard polls it while a campaign sends): prepared once per
  // connection in PostgreSQL, so it is not planned again on every request.
  const findText = `${new PgDialect().sqlToQuery(SELECT).sql} WHERE c.team_id = $1 AND c.uuid = $2`;

  return {
    async find(teamId: number, uuid: string): Promise<CampaignRecord | undefined> {
      const { rows } = await db.$client.query({ name: 'campaign_by_uuid', text: findText, values: [teamId, uuid] });
      return parseRows(CampaignRecordSchema, rows)[0];
    },

    async list(teamId: number, window: PageWindow, filters: CampaignListFilters = {}): Promise<Page<CampaignRecord>> {
      const { status, approval, includeTests, templateUuid, search } = filters;
      const conditions = [sql`c.team_id = ${teamId}`];
      if (!includeTests) conditions.push(sql`NOT c.is_test`);
      if (templateUuid !== undefined) conditions.push(sql`c.template_id = (SELECT id FROM templates WHERE team_id = ${teamId} AND uuid = ${templateUuid})`);
      if (status !== undefined) conditions.push(sql`c.status = ${status}`);
      if (approval !== undefined) conditions.push(sql`c.approval_status = ${approval}`);
      if (search) conditions.push(containsText(sql`c.name`, search));
      const where = sql.join(conditions, sql` AND `);
      return readPage({
        rows: rowsOf(
          db,
          CampaignRecordSchema,
          sql`${SELECT} WHERE ${where} ORDER BY ${orderOf(ORDER, window.sort)} LIMIT ${window.limit} OFFSET ${window.offset}`,
        ),
        // All of the team's campaigns, tests included: its counter row (migration 0018); otherwise counted by its index.
        count: () =>
          conditions.length === 1 ? teamRowCountOf(db, teamId, 'campaigns') : countOf(db, sql`SELECT count(*)::int AS total FROM campaigns c WHERE ${where}`),
      });
    },

    /** A campaign with its groups and pauses (and its test recipient): several statements, so the caller gives a transaction. */
    async insert(
      tx: Tx,
      teamId: number,
      write: CampaignWrite,
      now: Date,
      createdBy: number,
      test?: { phoneNumber: string; customFields: Record<string, string>; testOf?: number },
    ): Promise<CampaignRecord> {
      // Draft, scheduled or awaiting approval: the lifecycle says which columns hold it.
      const state = campaignLifecycle.initialState(write, now);
      const { id } = await oneRowOf(
        tx,
        IdSchema,
        sql`
        INSERT INTO campaigns (team_id, template_id, name, sender, scheduled_send_date, expiry_date, throttled, scheduled_finish_date, is_test,
                               ${state.columns}, ignore_quiet_hours, test_of, created_by, created_at, updated_at)
        VALUES (${teamId}, ${write.templateId}, ${write.name}, ${write.sender}, ${write.scheduledSendDate}, ${write.expiryDate}, ${write.throttled},
                ${write.scheduledFinishDate}, ${test !== undefined}, ${state.values}, ${write.ignoreQuietHours}, ${test?.testOf ?? null}, ${createdBy}, ${now}, ${now})
        RETURNING id`,
      );
      await writeChildren(tx, id, write, now);
      if (test)
        await tx.execute(
          sql`INSERT INTO campaign_test_recipients (campaign_id, phone_number, custom_fields) VALUES (${id}, ${test.phoneNumber}, ${JSON.stringify(test.customFields)}::jsonb)`,
        );
      return (await one(sql`c.id = ${id}`, tx))!;
    },

    /**
     * Replaces an editable campaign's content. The status check is repeated under the row lock, so
     * a campaign that started sending meanwhile is not changed (returns undefined). Several
     * statements, so the caller gives a transaction.
     */
    async update(tx: Tx, id: number, write: CampaignWrite, manuallyPaused: boolean | null | undefined, now: Date): Promise<CampaignRecord | undefined> {
      // The draft flag, the pause and the approval asked for again, and whether it is still editable: the lifecycle's.
      const state = campaignLifecycle.editedState(write, manuallyPaused, now);
      const rows = await rowsOf(
        tx,
        IdSchema,
        sql`
        UPDATE campaigns
           SET template_id = ${write.templateId}, name = ${write.name}, sender = ${write.sender}, scheduled_send_date = ${write.scheduledSendDate},
               expiry_date = ${write.expiryDate}, throttled = ${write.throttled}, scheduled_finish_date = ${write.scheduledFinishDate},
               updated_at = ${now}, ignore_quiet_hours = ${write.ignoreQuietHours}, ${state.set}
         WHERE id = ${id} AND ${state.editable}
        RETURNING id`,
      );
      if (rows.length === 0) return undefined;
      await writeChildren(tx, id, write, now);
      return one(sql`c.id = ${id}`, tx);
    },

    /** A campaign by its id, read on the connection or transaction given (after a lifecycle transition, in its transaction). */
    byId: (conn: Conn, id: number): Promise<CampaignRecord | undefined> => one(sql`c.id = ${id}`, conn),

    /** Deletes unless it is sending (checked in the statement itself), with its messages (no foreign key cascades them: 0015). */
    async deleteUnlessSending(conn: Conn, id: number): Promise<boolean> {
      const row = await oneRowOf(
        conn,
        z.object({ deleted: z.boolean() }),
        sql`
        WITH gone AS (DELETE FROM campaigns WHERE id = ${id} AND status <> 1 RETURNING id),
        messages_gone AS (DELETE FROM messages WHERE campaign_id IN (SELECT id FROM gone))
        SELECT EXISTS (SELECT 1 FROM gone) AS deleted`,
      );
      return row.deleted;
    },

    /**
     * The engine's counters (kept as messages move): one row read, whatever the campaign's size; and
     * the messages its batches held for quiet hours hold now (a few rows: one a run of a zone).
     */
    async messageCounts(id: number, now: Date): Promise<z.output<typeof CountsSchema>> {
      return oneRowOf(
        db,
        CountsSchema,
        sql`
        WITH c AS (
          -- While its audience is being written, the count expected (never fewer than those written).
          SELECT *, CASE WHEN audience_after IS NULL THEN message_count ELSE greatest(message_count, coalesce(audience_estimate, 0)) END AS recipients
            FROM campaigns WHERE id = ${id})
        SELECT recipients AS total, recipients - submitted_count - delivered_count - failed_count - unsent_count AS queued,
               submitted_count AS submitted, delivered_count AS delivered, failed_count AS failed, unsent_count AS unsent,
               click_count AS clicks, human_click_count AS "humanClicks", in_doubt_count AS "inDoubt",
               (SELECT coalesce(sum(b.held_messages), 0)::int FROM send_batches b
                 WHERE b.campaign_id = c.id AND b.owner = ${HELD_OWNER} AND b.lease_until > ${now}) AS "heldForQuietHours"
          FROM c`,
      );
    },

    /** The campaign's included and excluded groups, each in the order given (the first included group wins a disagreement of fields). */
    async groupIds(id: number): Promise<{ included: number[]; excluded: number[] }> {
      const rows = await rowsOf(
        db,
        GroupIdsSchema,
        sql`
        SELECT kind, array_agg(contact_group_id ORDER BY position) AS ids FROM campaign_groups WHERE campaign_id = ${id} GROUP BY kind`,
      );
      const of = (kind: string) => rows.find((row) => row.kind === kind)?.ids ?? [];
      return { included: of('included'), excluded: of('excluded') };
    },
  };
}
export type CampaignsRepository = ReturnType<typeof createCampaignsRepository>;
