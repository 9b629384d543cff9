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
/** Messages leased together; `batchId` releases them. */
export type ClaimedBatch = { batchId: number; messages: ClaimedMessage[] };

/**
 * The engine's database side. Every step is one statement or one transaction whose result is the
 * checkpoint: a crash between two steps loses nothing and repeats only leased work.
 */
export function createEngineStore(db: Db) {
  const settleEarlyReceipts = async (gatewayIds: string[]) => {
    // Almost always none wait: one look at the (small) table first, so the update below only ever
    // joins the few that do.
    const { rows: waiting } = await db.execute<{ gateway_id: string }>(sql`
      SELECT gateway_id FROM early_receipts WHERE gateway_id = ANY(${sql.param(gatewayIds)}::text[])`);
    if (waiting.length === 0) return;
    const ids = waiting.map((row) => row.gateway_id);
    await db.execute(sql`
      WITH settled AS (
        UPDATE messages m SET status = r.status, reason = r.reason, finished_at = r.received_at
          FROM early_receipts r
         WHERE r.gateway_id = ANY(${sql.param(ids)}::text[]) AND m.gateway_id = ANY(${sql.param(ids)}::text[])
           AND m.gateway_id = r.gateway_id AND m.status = 'submitted'
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
          // The recipients are sorted by number: in memory rather than through temporary files.
          await tx.execute(sql`SET LOCAL work_mem = '64MB'`);
          await tx.execute(sql`UPDATE campaigns SET status = 1, started_sending_at = ${now}, updated_at = ${now} WHERE id = ${campaign.id}`);
          let inserted;
          if (campaign.is_test) {
            inserted = await tx.execute(sql`
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
            inserted = await tx.execute(sql`
              INSERT INTO messages (campaign_id, sequence, phone_number, custom_fields, contact_group_id)
              SELECT ${campaign.id}, row_number() OVER (ORDER BY r.phone_number), r.phone_number, r.custom_fields, r.contact_group_id
                FROM (${recipientsOf(included, excluded)}) r`);
          }
          await tx.execute(sql`
            UPDATE campaigns SET message_count = ${inserted.rowCount ?? 0}, next_sequence = 1, anchor_sequence = 1 WHERE id = ${campaign.id}`);
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
               c.next_sequence - c.anchor_sequence AS "sentSinceAnchor",
               c.message_count - c.next_sequence + 1 + coalesce((SELECT sum(b.last_sequence - b.first_sequence + 1) FROM send_batches b WHERE b.campaign_id = c.id), 0)::int AS queued,
               coalesce((SELECT json_agg(json_build_object('start', p.start_at, 'end', p.end_at)) FROM campaign_pauses p WHERE p.campaign_id = c.id), '[]') AS pauses,
               coalesce((SELECT json_object_agg(l.name, json_build_object('id', l.id, 'destination', l.destination, 'domain', vd.domain))
                           FROM links l JOIN vanity_domains vd ON vd.id = l.vanity_domain_id WHERE l.template_id = c.template_id), '{}') AS links
          FROM campaigns c JOIN templates t ON t.id = c.template_id
         WHERE c.status = 1 AND c.manually_paused IS NOT TRUE
         -- Throttled campaigns first: each asks only for its plan's share and has a finish time to keep.
         ORDER BY c.throttled DESC, c.started_sending_at, c.id`);
      return rows.map((row) => ({
        ...row,
        scheduledFinishDate: row.scheduledFinishDate ? new Date(row.scheduledFinishDate) : null,
        anchor: new Date(row.anchor),
        pauses: row.pauses.map((p) => ({ start: new Date(p.start).getTime(), end: new Date(p.end).getTime() })),
      }));
    },

    /**
     * Leases the next `limit` messages of a campaign as one batch: a batch whose lease ended (its
     * worker died) first, else the next range of sequences. Only the batch row is written here; the
     * messages are read through the (campaign, sequence) index. SKIP LOCKED keeps workers apart.
     */
    async claim(campaignId: number, limit: number, owner: string, now: Date, leaseMs: number): Promise<ClaimedBatch | undefined> {
      const leaseUntil = new Date(now.getTime() + leaseMs);
      return db.transaction(async (tx) => {
        // Checked at each claim, not once a tick: a pause by hand or the expiry stops the very next batch.
        const { rows: open } = await tx.execute(sql`
          SELECT 1 FROM campaigns WHERE id = ${campaignId} AND status = 1 AND manually_paused IS NOT TRUE AND expiry_date > ${now}`);
        if (open.length === 0) return undefined;
        const messagesIn = async (first: number, last: number) =>
          (
            await tx.execute<ClaimedMessage & { sequence: number }>(sql`
              SELECT id, uuid, sequence, phone_number AS "phoneNumber", custom_fields AS "customFields" FROM messages
               WHERE campaign_id = ${campaignId} AND sequence BETWEEN ${first} AND ${last} AND status = 'queued'
               ORDER BY sequence LIMIT ${limit}`)
          ).rows;
        // A number that opted out since sending began (STOP to an earlier message) is not sent to: its
        // message becomes unsent (`opted_out`), numbered for the unsent report like those expiry leaves.
        const batchOf = async (batchId: number, messages: Array<ClaimedMessage & { sequence: number }>): Promise<ClaimedBatch> => {
          const ids = messages.map((m) => m.id);
          const { rows: optedOut } = await tx.execute<{ id: number }>(sql`
            WITH opted AS (
              SELECT m.id, row_number() OVER (ORDER BY m.sequence) AS n FROM messages m
               WHERE m.id = ANY(${sql.param(ids)}::bigint[]) AND m.campaign_id = ${campaignId}
                 AND EXISTS (SELECT 1 FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id JOIN campaigns k ON k.team_id = g.team_id
                              WHERE k.id = ${campaignId} AND g.system_role = 'optouts' AND c.phone_number = m.phone_number)),
            counted AS (
              UPDATE campaigns SET unsent_count = unsent_count + (SELECT count(*) FROM opted)
               WHERE id = ${campaignId} AND EXISTS (SELECT 1 FROM opted)
              RETURNING unsent_count - (SELECT count(*) FROM opted)::int AS base)
            UPDATE messages m SET status = 'unsent', reason = 'opted_out', unsent_sequence = counted.base + opted.n, finished_at = ${now}
              FROM opted, counted WHERE m.id = opted.id
            RETURNING m.id`);
          const skipped = new Set(optedOut.map((row) => Number(row.id)));
          return {
            batchId: Number(batchId),
            messages: messages.filter((m) => !skipped.has(Number(m.id))).map(({ sequence: _, ...message }) => message),
          };
        };
        // A batch left by a worker that died: taken over, and cut to `limit` (the rest stays free for others).
        for (;;) {
          const { rows: stale } = await tx.execute<{ id: number; first: number; last: number }>(sql`
            SELECT id, first_sequence AS first, last_sequence AS last FROM send_batches
             WHERE campaign_id = ${campaignId} AND lease_until < ${now}
             ORDER BY first_sequence LIMIT 1 FOR UPDATE SKIP LOCKED`);
          const batch = stale[0];
          if (!batch) break;
          const messages = await messagesIn(batch.first, batch.last);
          if (messages.length === 0) {
            await tx.execute(sql`DELETE FROM send_batches WHERE id = ${batch.id}`);
            continue;
          }
          const through = messages[messages.length - 1]!.sequence;
          await tx.execute(sql`UPDATE send_batches SET owner = ${owner}, lease_until = ${leaseUntil}, first_sequence = ${messages[0]!.sequence}, last_sequence = ${through} WHERE id = ${batch.id}`);
          if (through < batch.last) {
            await tx.execute(sql`
              INSERT INTO send_batches (campaign_id, first_sequence, last_sequence, owner, lease_until)
              VALUES (${campaignId}, ${through + 1}, ${batch.last}, ${owner}, '-infinity')`);
          }
          return await batchOf(batch.id, messages);
        }
        // The next range: the campaign row's lock makes claimers take ranges one after the other.
        const { rows: range } = await tx.execute<{ first: number; last: number }>(sql`
          WITH c AS (SELECT id, next_sequence AS first, least(next_sequence + ${limit}, message_count + 1) AS next
                       FROM campaigns WHERE id = ${campaignId} AND status = 1 AND next_sequence <= message_count FOR UPDATE)
          UPDATE campaigns SET next_sequence = c.next FROM c WHERE campaigns.id = c.id
          RETURNING c.first, c.next - 1 AS last`);
        const next = range[0];
        if (!next) return undefined;
        const { rows: inserted } = await tx.execute<{ id: number }>(sql`
          INSERT INTO send_batches (campaign_id, first_sequence, last_sequence, owner, lease_until)
          VALUES (${campaignId}, ${next.first}, ${next.last}, ${owner}, ${leaseUntil}) RETURNING id`);
        const messages = await messagesIn(next.first, next.last);
        return await batchOf(inserted[0]!.id, messages);
      });
    },

    /**
     * The checkpoint: what the gateway accepted is submitted, what it refused failed, in one
     * statement with the batch's release: deleted when every message was settled, else offered
     * again at once (a dropped connection left some unknown).
     */
    async settle(
      batchId: number,
      result: { submitted: Array<{ id: number; body: string; gatewayId: string }>; rejected: Array<{ id: number; body: string; reason: string }>; complete: boolean },
      now: Date,
      owner: string,
    ): Promise<void> {
      const { submitted, rejected } = result;
      const ids = [...submitted.map((s) => s.id), ...rejected.map((r) => r.id)];
      await db.execute(sql`
        WITH incoming AS (
          SELECT * FROM unnest(${sql.param(ids)}::bigint[],
                               ${sql.param([...submitted.map((s) => s.body), ...rejected.map((r) => r.body)])}::text[],
                               ${sql.param([...submitted.map((s) => s.gatewayId), ...rejected.map(() => null)])}::text[],
                               ${sql.param([...submitted.map(() => null), ...rejected.map((r) => r.reason)])}::text[]) AS t(id, body, gateway_id, reason)),
        written AS (
          UPDATE messages m SET status = CASE WHEN i.gateway_id IS NULL THEN 'failed' ELSE 'submitted' END,
                                reason = i.reason, body = i.body, gateway_id = i.gateway_id,
                                submitted_at = CASE WHEN i.gateway_id IS NULL THEN NULL ELSE ${now}::timestamptz END,
                                finished_at = CASE WHEN i.gateway_id IS NULL THEN ${now}::timestamptz END,
                                submitted_by = ${owner}
            FROM incoming i WHERE m.id = i.id AND m.status = 'queued'
             AND m.id = ANY(${sql.param(ids)}::bigint[]))
        ${result.complete ? sql`DELETE FROM send_batches WHERE id = ${batchId}` : sql`UPDATE send_batches SET lease_until = '-infinity' WHERE id = ${batchId}`}`);
      if (submitted.length > 0) await settleEarlyReceipts(submitted.map((s) => s.gatewayId));
    },

    /**
     * Receipts settle submitted messages, many in one statement; one for a message already settled
     * (expired) changes nothing. Those that arrive before their submission is recorded wait in
     * early_receipts, and are settled again at once in case the submission landed meanwhile.
     */
    async markReceipts(receipts: Array<{ gatewayId: string; status: 'delivered' | 'failed'; reason: string | null; at: Date }>): Promise<void> {
      if (receipts.length === 0) return;
      const columns = (list: typeof receipts) =>
        sql`unnest(${sql.param(list.map((r) => r.gatewayId))}::text[], ${sql.param(list.map((r) => r.status))}::text[],
                   ${sql.param(list.map((r) => r.reason))}::text[], ${sql.param(list.map((r) => r.at.toISOString()))}::timestamptz[])
              AS i(gateway_id, status, reason, received_at)`;
      const settled = await db.execute(sql`
        UPDATE messages m SET status = i.status, reason = i.reason, finished_at = i.received_at
          FROM ${columns(receipts)} WHERE m.gateway_id = i.gateway_id AND m.status = 'submitted'
           AND m.gateway_id = ANY(${sql.param(receipts.map((r) => r.gatewayId))}::text[])`);
      if (settled.rowCount === receipts.length) return;
      // Some did not settle a submitted message: for one already settled (expired) or a keyword
      // reply nothing; for a submission not recorded yet, a wait in early_receipts.
      const { rows } = await db.execute<{ gateway_id: string }>(sql`
        INSERT INTO early_receipts (gateway_id, status, reason, received_at)
        SELECT i.gateway_id, i.status, i.reason, i.received_at FROM ${columns(receipts)}
         WHERE NOT EXISTS (SELECT 1 FROM messages m WHERE m.gateway_id = i.gateway_id)
           AND NOT EXISTS (SELECT 1 FROM outbound_replies r WHERE r.gateway_id = i.gateway_id)
        ON CONFLICT (gateway_id) DO NOTHING
        RETURNING gateway_id`);
      if (rows.length > 0) await settleEarlyReceipts(rows.map((row) => row.gateway_id));
    },

    /** At expiry: queued messages are unsent (`pending`), submitted ones without a final receipt failed (`Expired`). */
    async expire(now: Date): Promise<void> {
      // Once per campaign, in one transaction: the campaign's row is marked, its batches dropped, its messages settled.
      for (;;) {
        const done = await db.transaction(async (tx) => {
          const { rows } = await tx.execute<{ id: number }>(sql`
            UPDATE campaigns SET expired_at = ${now}, next_sequence = message_count + 1, updated_at = ${now}
             WHERE id = (SELECT id FROM campaigns WHERE expiry_date <= ${now} AND status IN (1, 2) AND expired_at IS NULL
                          ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
            RETURNING id`);
          const campaign = rows[0];
          if (!campaign) return true;
          await tx.execute(sql`DELETE FROM send_batches WHERE campaign_id = ${campaign.id}`);
          // Unsent messages are numbered as they become unsent: the unsent report pages by that number.
          await tx.execute(sql`
            WITH counted AS (SELECT unsent_count FROM campaigns WHERE id = ${campaign.id}),
            open AS (
              SELECT id, status, CASE status WHEN 'queued' THEN row_number() OVER (PARTITION BY status ORDER BY sequence) END AS n
                FROM messages WHERE campaign_id = ${campaign.id} AND status IN ('queued', 'submitted')),
            written AS (
              UPDATE messages m SET status = CASE o.status WHEN 'queued' THEN 'unsent' ELSE 'failed' END,
                                    reason = CASE o.status WHEN 'queued' THEN 'pending' ELSE 'Expired' END,
                                    unsent_sequence = (SELECT unsent_count FROM counted) + o.n,
                                    finished_at = ${now}
                FROM open o WHERE m.id = o.id
              RETURNING o.n)
            UPDATE campaigns SET unsent_count = unsent_count + (SELECT count(n) FROM written) WHERE id = ${campaign.id}`);
          return false;
        });
        if (done) return;
      }
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
        SELECT (SELECT coalesce(sum(message_count - next_sequence + 1), 0) FROM campaigns WHERE status = 1 AND manually_paused IS NOT TRUE)::int
             + (SELECT coalesce(sum(last_sequence - first_sequence + 1), 0) FROM send_batches)::int
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

    /** Accepted replies are submitted (with the gateway's id), refused ones failed with the reason; the rest go back to the queue. */
    async settleReplies(
      outcome: { submitted: Array<{ id: number; gatewayId: string }>; rejected: Array<{ id: number; reason: string }>; unknown: number[] },
      now: Date,
    ): Promise<void> {
      const { submitted, rejected, unknown } = outcome;
      await db.execute(sql`
        WITH s AS (
          UPDATE outbound_replies r SET status = 'submitted', gateway_id = i.gateway_id, updated_at = ${now}, lease_until = NULL
            FROM unnest(${sql.param(submitted.map((x) => x.id))}::bigint[], ${sql.param(submitted.map((x) => x.gatewayId))}::text[]) AS i(id, gateway_id)
           WHERE r.id = i.id),
        f AS (
          UPDATE outbound_replies r SET status = 'failed', reason = i.reason, updated_at = ${now}, lease_until = NULL
            FROM unnest(${sql.param(rejected.map((x) => x.id))}::bigint[], ${sql.param(rejected.map((x) => x.reason))}::text[]) AS i(id, reason)
           WHERE r.id = i.id)
        UPDATE outbound_replies SET lease_until = NULL WHERE id = ANY(${sql.param(unknown)}::bigint[])`);
    },

    /** Status 2 once every message was claimed and every batch settled. */
    async finishDone(now: Date): Promise<number[]> {
      const { rows } = await db.execute<{ id: number }>(sql`
        UPDATE campaigns c SET status = 2, finished_sending_at = ${now}, updated_at = ${now}
         WHERE c.status = 1 AND c.next_sequence > c.message_count AND NOT EXISTS (SELECT 1 FROM send_batches b WHERE b.campaign_id = c.id)
        RETURNING c.id`);
      return rows.map((row) => row.id);
    },
  };
}
export type EngineStore = ReturnType<typeof createEngineStore>;
