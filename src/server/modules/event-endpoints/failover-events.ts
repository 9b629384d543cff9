import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { FailoverEvent } from '../../gateways/sms/routing/team-router';

/**
 * Records the failovers of a submit (routing/team-router.ts collects them; docs/events.md,
 * docs/overview.md), in one statement whatever their number:
 * - the `message.failed_over` events into the outbox, one row per team and campaign (the delivery
 *   worker merges and splits message events into calls of EVENT_BATCH_SIZE, as for the others),
 *   written only for a team with an enabled endpoint listening to the type;
 * - their count into the team's hourly counters (`failovers`, migration 0045), for the overview.
 * The campaign of each message is found through its number (`messages_phone_number_idx`: the few
 * messages a number ever received) and its uuid, which has no index of its own (migration 0013).
 * Send tests are left out, as for the other message events and counts.
 */
export function createFailoverRecorder(db: Db) {
  return async function recordFailovers(events: FailoverEvent[]): Promise<void> {
    if (events.length === 0) return;
    const rows = JSON.stringify(
      events.map((event, n) => ({
        n,
        team_id: event.teamId,
        message: event.messageUuid,
        phone_number: event.phoneNumber,
        from_uuid: event.from.uuid,
        from_name: event.from.name,
        to_uuid: event.to?.uuid ?? null,
        to_name: event.to?.name ?? null,
        reason: event.reason,
        at: event.at.toISOString(),
      })),
    );
    await db.execute(sql`
      WITH f AS (
        SELECT * FROM jsonb_to_recordset(${rows}::jsonb)
          AS x(n int, team_id bigint, message uuid, phone_number text, from_uuid uuid, from_name text, to_uuid uuid, to_name text, reason text, at timestamptz)),
      found AS (
        SELECT f.*, c.id AS campaign_id, c.uuid AS campaign_uuid, c.name AS campaign_name
          FROM f JOIN messages m ON m.phone_number = f.phone_number AND m.uuid = f.message
          JOIN campaigns c ON c.id = m.campaign_id AND c.team_id = f.team_id
         WHERE c.test_of IS NULL),
      counted AS (
        INSERT INTO team_hourly_counts AS h (team_id, hour, failovers)
        SELECT team_id, date_trunc('hour', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*) FROM found GROUP BY 1, 2
        ON CONFLICT (team_id, hour) DO UPDATE SET failovers = h.failovers + EXCLUDED.failovers
        RETURNING 1)
      INSERT INTO event_outbox (team_id, type, data, occurred_at)
      SELECT team_id, 'message.failed_over',
             jsonb_build_object(
               'campaign', jsonb_build_object('uuid', campaign_uuid, 'name', campaign_name),
               'messages', jsonb_agg(jsonb_build_object(
                 'uuid', message, 'phone_number', phone_number,
                 'from_connection', jsonb_build_object('uuid', from_uuid, 'name', from_name),
                 'to_connection', CASE WHEN to_uuid IS NULL THEN NULL ELSE jsonb_build_object('uuid', to_uuid, 'name', to_name) END,
                 'reason', reason, 'at', event_time(at)) ORDER BY n)),
             max(at)
        FROM found
       WHERE event_listened(team_id, 'message.failed_over')
       GROUP BY team_id, campaign_id, campaign_uuid, campaign_name`);
  };
}
export type RecordFailovers = ReturnType<typeof createFailoverRecorder>;
