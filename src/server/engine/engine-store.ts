import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { recipientsOf } from '../modules/contacts/contacts.repository';

export type SendingCampaign = {
  id: number;
  throttled: boolean;
  /** Where the throttle plan starts: sending began, or last resumed after a manual pause. */
  anchor: Date;
  sentSinceAnchor: number;
  scheduledFinishDate: Date | null;
  pauses: Array<{ start: number; end: number }>;
  queued: number;
  sender: string;
  body: string;
  /** The template's links by name, with the domain their short links are made on (null: the service's own). */
  links: Record<string, { id: number; destination: string; domain: string | null }>;
};
export type ClaimedMessage = { id: number; uuid: string; phoneNumber: string; customFields: Record<string, string> };

/**
 * The engine's database side. Every step is one statement or one transaction whose result is the
 * checkpoint: a crash between two steps loses nothing and repeats only leased work.
 */
export function createEngineStore(db: Db) {
  const settleEarlyReceipts = async (gatewayIds: string[]) => {
    await db.execute(sql`
      WITH settled AS (
        UPDATE messages m SET status = r.status, reason = r.reason, finished_at = r.received_at, updated_at = r.received_at
          FROM early_receipts r
         WHERE r.gateway_id = ANY(${sql.param(gatewayIds)}::text[]) AND m.gateway_id = r.gateway_id AND m.status = 'submitted'
        RETURNING m.gateway_id)
      DELETE FROM early_receipts WHERE gateway_id IN (SELECT gateway_id FROM settled)`);
  };

  return {
    /**
     * Campaigns whose send time has come: status 1 and one message per distinct recipient
     * (included minus excluded minus default_optouts), numbered, in one transaction each.
     */
    async startDue(now: Date, limit = 5): Promise<number[]> {
      const started: number[] = [];
      for (let i = 0; i < limit; i++) {
        const id = await db.transaction(async (tx) => {
          const { rows } = await tx.execute<{ id: number; team_id: number; is_test: boolean }>(sql`
            SELECT id, team_id, is_test FROM campaigns WHERE status = 0 AND scheduled_send_date <= ${now}
             ORDER BY scheduled_send_date, id LIMIT 1 FOR UPDATE SKIP LOCKED`);
          const campaign = rows[0];
          if (!campaign) return undefined;
          await tx.execute(sql`UPDATE campaigns SET status = 1, started_sending_at = ${now}, updated_at = ${now} WHERE id = ${campaign.id}`);
          if (campaign.is_test) {
            await tx.execute(sql`
              INSERT INTO messages (campaign_id, sequence, phone_number, custom_fields)
              SELECT campaign_id, 1, phone_number, custom_fields FROM campaign_test_recipients WHERE campaign_id = ${campaign.id}`);
          } else {
            const { rows: groups } = await tx.execute<{ included: number[]; excluded: number[] }>(sql`
              SELECT coalesce(array_agg(contact_group_id) FILTER (WHERE kind = 'included'), '{}') AS included,
                     coalesce(array_agg(contact_group_id) FILTER (WHERE kind = 'excluded'), '{}') ||
                       ARRAY(SELECT id FROM contact_groups WHERE team_id = ${campaign.team_id} AND system_role = 'optouts') AS excluded
                FROM campaign_groups WHERE campaign_id = ${campaign.id}`);
            const included = (groups[0]?.included ?? []).map(Number);
            const excluded = (groups[0]?.excluded ?? []).map(Number);
            // One set-based statement, numbered by phone number: report pages are sequence ranges.
            await tx.execute(sql`
              INSERT INTO messages (campaign_id, sequence, phone_number, custom_fields)
              SELECT ${campaign.id}, row_number() OVER (ORDER BY r.phone_number), r.phone_number, r.custom_fields
                FROM (${recipientsOf(included, excluded)}) r`);
          }
          return campaign.id;
        });
        if (id === undefined) break;
        started.push(id);
      }
      return started;
    },

    /** Sending campaigns not paused by hand, with what they need to send a tick. */
    async sending(): Promise<SendingCampaign[]> {
      const { rows } = await db.execute<SendingCampaign & { pauses: Array<{ start: string; end: string }> }>(sql`
        SELECT c.id, c.throttled, c.scheduled_finish_date AS "scheduledFinishDate", c.sender, t.body,
               greatest(c.started_sending_at, c.resumed_at) AS anchor,
               (SELECT count(*)::int FROM messages m WHERE m.campaign_id = c.id AND m.submitted_at >= greatest(c.started_sending_at, c.resumed_at)) AS "sentSinceAnchor",
               (SELECT count(*)::int FROM messages m WHERE m.campaign_id = c.id AND m.status = 'queued') AS queued,
               coalesce((SELECT json_agg(json_build_object('start', p.start_at, 'end', p.end_at)) FROM campaign_pauses p WHERE p.campaign_id = c.id), '[]') AS pauses,
               coalesce((SELECT json_object_agg(l.name, json_build_object('id', l.id, 'destination', l.destination, 'domain', vd.domain))
                           FROM links l JOIN vanity_domains vd ON vd.id = l.vanity_domain_id WHERE l.template_id = c.template_id), '{}') AS links
          FROM campaigns c JOIN templates t ON t.id = c.template_id
         WHERE c.status = 1 AND c.manually_paused IS NOT TRUE`);
      return rows.map((row) => ({
        ...row,
        scheduledFinishDate: row.scheduledFinishDate ? new Date(row.scheduledFinishDate) : null,
        anchor: new Date(row.anchor),
        pauses: row.pauses.map((p) => ({ start: new Date(p.start).getTime(), end: new Date(p.end).getTime() })),
      }));
    },

    /** Leases up to `limit` queued messages (expired leases included), lowest sequence first; SKIP LOCKED keeps workers apart. */
    async claim(campaignId: number, limit: number, owner: string, now: Date, leaseMs: number): Promise<ClaimedMessage[]> {
      const { rows } = await db.execute<ClaimedMessage>(sql`
        UPDATE messages m SET lease_owner = ${owner}, lease_until = ${new Date(now.getTime() + leaseMs)}
         WHERE m.id IN (
           SELECT id FROM messages WHERE campaign_id = ${campaignId} AND status = 'queued' AND (lease_until IS NULL OR lease_until < ${now})
            ORDER BY sequence LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING m.id, m.uuid, m.phone_number AS "phoneNumber", m.custom_fields AS "customFields"`);
      return rows;
    },

    /** The checkpoint moves when a message is submitted (not when it is claimed). */
    async markSubmitted(submitted: Array<{ id: number; body: string; gatewayId: string }>, now: Date, owner: string): Promise<void> {
      if (submitted.length === 0) return;
      await db.execute(sql`
        UPDATE messages m SET status = 'submitted', body = s.body, gateway_id = s.gateway_id, submitted_at = ${now}, updated_at = ${now}, submitted_by = ${owner},
                              lease_owner = NULL, lease_until = NULL
          FROM unnest(${sql.param(submitted.map((s) => s.id))}::bigint[], ${sql.param(submitted.map((s) => s.body))}::text[],
                      ${sql.param(submitted.map((s) => s.gatewayId))}::text[]) AS s(id, body, gateway_id)
         WHERE m.id = s.id AND m.status = 'queued'`);
      await settleEarlyReceipts(submitted.map((s) => s.gatewayId));
    },

    /**
     * Receipts settle submitted messages, many in one statement; one for a message already settled
     * (expired) changes nothing. Those that arrive before their submission is recorded wait in
     * early_receipts, and are settled again at once in case the submission landed meanwhile.
     */
    async markReceipts(receipts: Array<{ gatewayId: string; status: 'delivered' | 'failed'; reason: string | null; at: Date }>): Promise<void> {
      if (receipts.length === 0) return;
      const ids = receipts.map((r) => r.gatewayId);
      const { rows } = await db.execute<{ gateway_id: string }>(sql`
        WITH incoming AS (
          SELECT * FROM unnest(${sql.param(ids)}::text[], ${sql.param(receipts.map((r) => r.status))}::text[],
                               ${sql.param(receipts.map((r) => r.reason))}::text[], ${sql.param(receipts.map((r) => r.at.toISOString()))}::timestamptz[])
                   AS t(gateway_id, status, reason, received_at)),
        settled AS (
          UPDATE messages m SET status = i.status, reason = i.reason, finished_at = i.received_at, updated_at = i.received_at
            FROM incoming i WHERE m.gateway_id = i.gateway_id AND m.status = 'submitted'
          RETURNING m.gateway_id),
        known AS (SELECT gateway_id FROM messages WHERE gateway_id = ANY(${sql.param(ids)}::text[]))
        INSERT INTO early_receipts (gateway_id, status, reason, received_at)
        SELECT i.gateway_id, i.status, i.reason, i.received_at FROM incoming i
         WHERE i.gateway_id NOT IN (SELECT gateway_id FROM settled) AND i.gateway_id NOT IN (SELECT gateway_id FROM known)
        ON CONFLICT (gateway_id) DO NOTHING
        RETURNING gateway_id`);
      if (rows.length > 0) await settleEarlyReceipts(rows.map((row) => row.gateway_id));
    },

    /** At expiry: queued messages are unsent (`pending`), submitted ones without a final receipt failed (`Expired`). */
    async expire(now: Date): Promise<void> {
      await db.execute(sql`
        UPDATE messages m SET status = CASE m.status WHEN 'queued' THEN 'unsent' ELSE 'failed' END,
                              reason = CASE m.status WHEN 'queued' THEN 'pending' ELSE 'Expired' END,
                              finished_at = ${now}, updated_at = ${now}, lease_owner = NULL, lease_until = NULL
          FROM campaigns c
         WHERE c.id = m.campaign_id AND c.expiry_date <= ${now} AND c.status IN (1, 2) AND m.status IN ('queued', 'submitted')`);
    },

    /** Records the short links made for a batch (one statement); false when a code collided (make new ones). */
    async insertShortLinks(rows: Array<{ code: string; messageId: number; linkId: number; linkName: string; destination: string }>): Promise<boolean> {
      if (rows.length === 0) return true;
      const result = await db.execute(sql`
        INSERT INTO short_links (code, message_id, link_id, link_name, destination)
        SELECT * FROM unnest(${sql.param(rows.map((r) => r.code))}::text[], ${sql.param(rows.map((r) => r.messageId))}::bigint[],
                             ${sql.param(rows.map((r) => r.linkId))}::bigint[], ${sql.param(rows.map((r) => r.linkName))}::text[],
                             ${sql.param(rows.map((r) => r.destination))}::text[])
        ON CONFLICT (code) DO NOTHING`);
      if ((result.rowCount ?? 0) === rows.length) return true;
      await db.execute(sql`DELETE FROM short_links WHERE code = ANY(${sql.param(rows.map((r) => r.code))}::text[]) AND message_id = ANY(${sql.param(rows.map((r) => r.messageId))}::bigint[])`);
      return false;
    },

    /** Hands back the part of a grant a tick did not use, for the other processes this second. */
    async returnRateBudget(now: Date, unused: number): Promise<void> {
      if (unused <= 0) return;
      const second = new Date(Math.floor(now.getTime() / 1000) * 1000);
      await db.execute(sql`UPDATE gateway_rate SET used = GREATEST(0, used - ${unused}) WHERE second = ${second}`);
    },

    /** Messages and replies that could go now (so an idle engine takes no rate allowance). */
    async pendingWork(): Promise<number> {
      const { rows } = await db.execute<{ pending: number }>(sql`
        SELECT (SELECT count(*) FROM (SELECT 1 FROM messages m JOIN campaigns c ON c.id = m.campaign_id
                                       WHERE c.status = 1 AND m.status = 'queued' LIMIT 100000) q)::int
             + (SELECT count(*) FROM outbound_replies WHERE status = 'queued')::int AS pending`);
      return rows[0]?.pending ?? 0;
    },

    /**
     * Takes up to `want` sends from this second's allowance of `limit`, shared by every process;
     * returns how many were granted. Old seconds are cleared as new ones start.
     */
    async takeRateBudget(now: Date, want: number, limit: number): Promise<number> {
      if (want <= 0) return 0;
      const second = new Date(Math.floor(now.getTime() / 1000) * 1000);
      const granted = await db.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO gateway_rate (second, used) VALUES (${second}, 0) ON CONFLICT (second) DO NOTHING`);
        // The row lock makes processes take their share one after the other.
        const { rows } = await tx.execute<{ used: number }>(sql`SELECT used FROM gateway_rate WHERE second = ${second} FOR UPDATE`);
        const share = Math.max(0, Math.min(want, limit - (rows[0]?.used ?? limit)));
        if (share > 0) await tx.execute(sql`UPDATE gateway_rate SET used = used + ${share} WHERE second = ${second}`);
        return share;
      });
      if (second.getUTCSeconds() === 0) await db.execute(sql`DELETE FROM gateway_rate WHERE second < ${new Date(second.getTime() - 60_000)}`);
      return granted;
    },

    /** Keyword replies waiting to go (the inbound pipeline queues them); each is claimed by one worker. */
    async claimReplies(limit: number, now: Date, leaseMs: number): Promise<Array<{ id: number; uuid: string; to: string; from: string; body: string }>> {
      const { rows } = await db.execute<{ id: number; uuid: string; to: string; from: string; body: string }>(sql`
        UPDATE outbound_replies r SET lease_until = ${new Date(now.getTime() + leaseMs)}
         WHERE r.id IN (
           SELECT id FROM outbound_replies WHERE status = 'queued' AND (lease_until IS NULL OR lease_until < ${now})
            ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING r.id, r.uuid, r.to_number AS "to", r.sender AS "from", r.body`);
      return rows;
    },

    async markRepliesSubmitted(ids: number[], now: Date): Promise<void> {
      if (ids.length === 0) return;
      await db.execute(sql`UPDATE outbound_replies SET status = 'submitted', updated_at = ${now} WHERE id = ANY(${sql.param(ids)}::bigint[])`);
    },

    /** Status 2 once nothing is queued or leased. */
    async finishDone(now: Date): Promise<number[]> {
      const { rows } = await db.execute<{ id: number }>(sql`
        UPDATE campaigns c SET status = 2, finished_sending_at = ${now}, updated_at = ${now}
         WHERE c.status = 1 AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.campaign_id = c.id AND m.status = 'queued')
        RETURNING c.id`);
      return rows.map((row) => row.id);
    },
  };
}
export type EngineStore = ReturnType<typeof createEngineStore>;
