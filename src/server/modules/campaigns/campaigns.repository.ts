import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { teamRowCountOf, type PageWindow } from '../../db/pages';

export type CampaignRecord = {
  id: number;
  uuid: string;
  teamUuid: string;
  templateId: number;
  templateUuid: string;
  name: string;
  sender: string;
  scheduledSendDate: Date;
  expiryDate: Date;
  status: number;
  throttled: boolean;
  scheduledFinishDate: Date | null;
  manuallyPaused: boolean | null;
  isTest: boolean;
  startedSendingAt: Date | null;
  finishedSendingAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  included: string[];
  excluded: string[];
  pauses: Array<{ uuid: string; startAt: Date; endAt: Date; createdAt: Date; updatedAt: Date }>;
};

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
  pauses: Array<{ startAt: Date; endAt: Date }>;
};

const MOMENTS = ['scheduledSendDate', 'expiryDate', 'scheduledFinishDate', 'startedSendingAt', 'finishedSendingAt', 'createdAt', 'updatedAt'] as const;

/** One query reads a campaign whole: its template's uuid, its groups in order and its pauses. */
const SELECT = sql`
  SELECT c.id, c.uuid, t.uuid AS "teamUuid", c.template_id AS "templateId", tp.uuid AS "templateUuid", c.name, c.sender,
         c.scheduled_send_date AS "scheduledSendDate", c.expiry_date AS "expiryDate", c.status, c.throttled,
         c.scheduled_finish_date AS "scheduledFinishDate", c.manually_paused AS "manuallyPaused", c.is_test AS "isTest",
         c.started_sending_at AS "startedSendingAt", c.finished_sending_at AS "finishedSendingAt",
         c.created_at AS "createdAt", c.updated_at AS "updatedAt",
         coalesce((SELECT array_agg(g.uuid::text ORDER BY cg.position) FROM campaign_groups cg JOIN contact_groups g ON g.id = cg.contact_group_id
                    WHERE cg.campaign_id = c.id AND cg.kind = 'included'), '{}') AS included,
         coalesce((SELECT array_agg(g.uuid::text ORDER BY cg.position) FROM campaign_groups cg JOIN contact_groups g ON g.id = cg.contact_group_id
                    WHERE cg.campaign_id = c.id AND cg.kind = 'excluded'), '{}') AS excluded,
         coalesce((SELECT json_agg(json_build_object('uuid', p.uuid, 'startAt', p.start_at, 'endAt', p.end_at, 'createdAt', p.created_at, 'updatedAt', p.updated_at) ORDER BY p.start_at)
                     FROM campaign_pauses p WHERE p.campaign_id = c.id), '[]') AS pauses
    FROM campaigns c JOIN teams t ON t.id = c.team_id JOIN templates tp ON tp.id = c.template_id`;

function read(row: Record<string, unknown>): CampaignRecord {
  const record = { ...row } as Record<string, unknown>;
  for (const key of MOMENTS) record[key] = record[key] === null ? null : new Date(record[key] as string);
  record.pauses = (row.pauses as Array<Record<string, string>>).map((p) => ({
    uuid: p.uuid,
    startAt: new Date(p.startAt!),
    endAt: new Date(p.endAt!),
    createdAt: new Date(p.createdAt!),
    updatedAt: new Date(p.updatedAt!),
  }));
  return record as CampaignRecord;
}

export function createCampaignsRepository(db: Db) {
  const writeChildren = async (tx: Tx, campaignId: number, write: CampaignWrite, now: Date) => {
    await tx.execute(sql`DELETE FROM campaign_groups WHERE campaign_id = ${campaignId}`);
    await tx.execute(sql`DELETE FROM campaign_pauses WHERE campaign_id = ${campaignId}`);
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

  const one = async (where: SQL, executor: Db | Tx = db) => {
    const { rows } = await executor.execute<Record<string, unknown>>(sql`${SELECT} WHERE ${where}`);
    return rows[0] ? read(rows[0]) : undefined;
  };

  // The most read campaign query (the dashboard polls it while a campaign sends): prepared once per
  // connection in PostgreSQL, so it is not planned again on every request.
  const findText = `${new PgDialect().sqlToQuery(SELECT).sql} WHERE c.team_id = $1 AND c.uuid = $2`;

  return {
    async find(teamId: number, uuid: string): Promise<CampaignRecord | undefined> {
      const { rows } = await db.$client.query<Record<string, unknown>>({ name: 'campaign_by_uuid', text: findText, values: [teamId, uuid] });
      return rows[0] ? read(rows[0]) : undefined;
    },

    async list(teamId: number, window: PageWindow, status?: number): Promise<{ rows: CampaignRecord[]; total: number }> {
      const where = status === undefined ? sql`c.team_id = ${teamId}` : sql`c.team_id = ${teamId} AND c.status = ${status}`;
      const [page, total] = await Promise.all([
        db.execute<Record<string, unknown>>(sql`${SELECT} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`),
        // All of the team's campaigns: its counter row (migration 0018); one status: counted by its index.
        status === undefined
          ? teamRowCountOf(db, teamId, 'campaigns')
          : db.execute<{ total: number }>(sql`SELECT count(*)::int AS total FROM campaigns c WHERE ${where}`).then(({ rows }) => rows[0]?.total ?? 0),
      ]);
      return { rows: page.rows.map(read), total };
    },

    async insert(teamId: number, write: CampaignWrite, now: Date, test?: { phoneNumber: string; customFields: Record<string, string> }): Promise<CampaignRecord> {
      return db.transaction(async (tx) => {
        const { rows } = await tx.execute<{ id: number }>(sql`
          INSERT INTO campaigns (team_id, template_id, name, sender, scheduled_send_date, expiry_date, throttled, scheduled_finish_date, is_test, created_at, updated_at)
          VALUES (${teamId}, ${write.templateId}, ${write.name}, ${write.sender}, ${write.scheduledSendDate}, ${write.expiryDate}, ${write.throttled},
                  ${write.scheduledFinishDate}, ${test !== undefined}, ${now}, ${now})
          RETURNING id`);
        const id = rows[0]!.id;
        await writeChildren(tx, id, write, now);
        if (test)
          await tx.execute(sql`INSERT INTO campaign_test_recipients (campaign_id, phone_number, custom_fields) VALUES (${id}, ${test.phoneNumber}, ${JSON.stringify(test.customFields)}::jsonb)`);
        return (await one(sql`c.id = ${id}`, tx))!;
      });
    },

    /**
     * Replaces an editable campaign's content. The status check is repeated under the row lock, so
     * a campaign that started sending meanwhile is not changed (returns undefined).
     */
    async update(id: number, write: CampaignWrite, manuallyPaused: boolean | null | undefined, now: Date): Promise<CampaignRecord | undefined> {
      return db.transaction(async (tx) => {
        const { rows } = await tx.execute<{ id: number }>(sql`
          UPDATE campaigns
             SET template_id = ${write.templateId}, name = ${write.name}, sender = ${write.sender}, scheduled_send_date = ${write.scheduledSendDate},
                 expiry_date = ${write.expiryDate}, throttled = ${write.throttled}, scheduled_finish_date = ${write.scheduledFinishDate},
                 manually_paused = ${manuallyPaused === undefined ? sql`manually_paused` : manuallyPaused}, updated_at = ${now}
           WHERE id = ${id} AND status = 0 AND scheduled_send_date > ${now}
          RETURNING id`);
        if (rows.length === 0) return undefined;
        await writeChildren(tx, id, write, now);
        return one(sql`c.id = ${id}`, tx);
      });
    },

    /**
     * Flips the manual pause in one statement (null → true → false → true …), so two toggles at once
     * flip it twice rather than both reading the same value. Only a throttled campaign that has not
     * finished sending can be toggled: `refused` says which rule stopped it, read from the same row.
     */
    async togglePaused(id: number, now: Date): Promise<{ record: CampaignRecord } | { refused: 'not_throttled' | 'finished' }> {
      const { rows } = await db.execute<{ paused: boolean | null; updated_at: string | null; throttled: boolean }>(sql`
        WITH flipped AS (
          UPDATE campaigns SET manually_paused = manually_paused IS NOT TRUE, updated_at = ${now},
                 -- Resuming restarts the throttle plan: what is left is spread over the open time left.
                 resumed_at = CASE WHEN manually_paused IS TRUE THEN ${now}::timestamptz ELSE resumed_at END,
                 anchor_sequence = CASE WHEN manually_paused IS TRUE THEN next_sequence ELSE anchor_sequence END
           WHERE id = ${id} AND throttled AND status IN (0, 1)
          RETURNING manually_paused, updated_at)
        SELECT f.manually_paused AS paused, f.updated_at, c.throttled FROM campaigns c LEFT JOIN flipped f ON true WHERE c.id = ${id}`);
      const row = rows[0];
      if (!row || row.paused === null) return { refused: row?.throttled ? 'finished' : 'not_throttled' };
      // The flag this toggle wrote (a toggle right after it may already have flipped it again).
      const record = (await one(sql`c.id = ${id}`))!;
      return { record: { ...record, manuallyPaused: row.paused, updatedAt: new Date(row.updated_at!) } };
    },

    /** Deletes unless it is sending (checked in the statement itself), with its messages (no foreign key cascades them: 0015). */
    async deleteUnlessSending(id: number): Promise<boolean> {
      const { rows } = await db.execute<{ deleted: boolean }>(sql`
        WITH gone AS (DELETE FROM campaigns WHERE id = ${id} AND status <> 1 RETURNING id),
        messages_gone AS (DELETE FROM messages WHERE campaign_id IN (SELECT id FROM gone))
        SELECT EXISTS (SELECT 1 FROM gone) AS deleted`);
      return rows[0]?.deleted === true;
    },

    /** The engine's counters (kept as messages move): one row read, whatever the campaign's size. */
    async messageCounts(id: number): Promise<Record<'total' | 'queued' | 'submitted' | 'delivered' | 'failed' | 'unsent' | 'clicks' | 'inDoubt', number>> {
      const { rows } = await db.execute<Record<'total' | 'queued' | 'submitted' | 'delivered' | 'failed' | 'unsent' | 'clicks' | 'inDoubt', number>>(sql`
        WITH c AS (
          -- While its audience is being written, the count expected (never fewer than those written).
          SELECT *, CASE WHEN audience_after IS NULL THEN message_count ELSE greatest(message_count, coalesce(audience_estimate, 0)) END AS recipients
            FROM campaigns WHERE id = ${id})
        SELECT recipients AS total, recipients - submitted_count - delivered_count - failed_count - unsent_count AS queued,
               submitted_count AS submitted, delivered_count AS delivered, failed_count AS failed, unsent_count AS unsent,
               click_count AS clicks, in_doubt_count AS "inDoubt"
          FROM c`);
      return rows[0]!;
    },

    async groupIds(id: number): Promise<{ included: number[]; excluded: number[] }> {
      const { rows } = await db.execute<{ kind: string; ids: number[] }>(sql`
        SELECT kind, array_agg(contact_group_id) AS ids FROM campaign_groups WHERE campaign_id = ${id} GROUP BY kind`);
      const of = (kind: string) => (rows.find((row) => row.kind === kind)?.ids ?? []).map(Number);
      return { included: of('included'), excluded: of('excluded') };
    },
  };
}
export type CampaignsRepository = ReturnType<typeof createCampaignsRepository>;
