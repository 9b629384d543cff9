/**
 * Overview benchmark (issue #21): a team with 1,000,000 messages spread over the last 90 days (one
 * campaign, as the engine leaves it: submitted, most delivered), 100,000 inbound messages, 5,000
 * opt-outs, campaigns scheduled, sending and awaiting approval, on a fresh embedded PostgreSQL. The
 * team's hourly counters are filled from the messages the way migration 0030 fills them for an
 * existing install. Measures `GET /api/2.0/overview` for the 90 days over real HTTP (median and
 * p99 of 200 requests after a warm-up); beside it, in the same run, its floor: one bare query summing
 * the same hourly counters through pg. Run: `npm run bench:overview [messages]`.
 */
import { sql } from 'drizzle-orm';
import { startBenchHerald } from './lib/herald';
import { emitResult, percentile } from './lib/result';

const MESSAGES = Number(process.argv[2] ?? 1_000_000);
const SAMPLES = 200;
const DAYS = 90;

async function main(): Promise<void> {
  const { db, database, origin, token, auth, user, services, close } = await startBenchHerald('overview', { RATE_LIMIT_PER_MINUTE: '1000000' });
  try {
    const template = await services.templates.create(auth, { name: 'Bench', body: 'Hello {{first_name}}, this is Herald.', sender: 'Herald' });
    const group = await services.contactGroups.create(auth, { name: 'Everyone', headers: ['first_name'] });
    const now = new Date();
    const campaign = async (name: string, status: number, sendAt: Date) => {
      const { rows } = await db.execute<{ id: number }>(sql`
        INSERT INTO campaigns (team_id, template_id, name, sender, scheduled_send_date, expiry_date, status, message_count, next_sequence, anchor_sequence)
        SELECT ${user.teamId}, t.id, ${name}, 'Herald', ${sendAt}, ${new Date(sendAt.getTime() + 86_400_000)}, ${status}, 0, 1, 1
          FROM templates t WHERE t.uuid = ${template.uuid}
        RETURNING id`);
      await db.execute(sql`
        INSERT INTO campaign_groups (campaign_id, contact_group_id, kind, position)
        SELECT ${rows[0]!.id}, g.id, 'included', 0 FROM contact_groups g WHERE g.uuid = ${group.uuid}`);
      return rows[0]!.id;
    };
    const sent = await campaign('Sent over 90 days', 2, new Date(now.getTime() - DAYS * 86_400_000));
    for (let i = 1; i <= 20; i++) await campaign(`Scheduled ${i}`, 0, new Date(now.getTime() + i * 3_600_000));
    for (let i = 1; i <= 3; i++) await campaign(`Sending ${i}`, 1, now);
    for (let i = 1; i <= 5; i++) {
      const awaiting = await campaign(`Awaiting ${i}`, 0, new Date(now.getTime() + i * 86_400_000));
      await db.execute(sql`UPDATE campaigns SET approval_status = 'pending', approval_requested_at = ${now} WHERE id = ${awaiting}`);
    }

    console.log(`writing ${MESSAGES.toLocaleString('en-GB')} messages over ${DAYS} days, 100,000 inbound messages and 5,000 opt-outs…`);
    await db.execute(sql`
      INSERT INTO messages (campaign_id, sequence, phone_number, contact_group_id, status, body, gateway_id, submitted_by, submitted_at, finished_at)
      SELECT ${sent}, i, '4477' || lpad(i::text, 8, '0'), (SELECT id FROM contact_groups WHERE uuid = ${group.uuid}),
             CASE WHEN i % 20 = 0 THEN 'failed' ELSE 'delivered' END, 'Hello N' || i || ', this is Herald.', 'g' || i, 'bench',
             ${now}::timestamptz - (i % ${DAYS * 24}) * interval '1 hour', ${now}::timestamptz - (i % ${DAYS * 24}) * interval '1 hour' + interval '3 seconds'
        FROM generate_series(1, ${MESSAGES}) i`);
    await db.execute(sql`
      UPDATE campaigns SET message_count = ${MESSAGES}, next_sequence = ${MESSAGES + 1}, anchor_sequence = ${MESSAGES + 1} WHERE id = ${sent}`);
    await db.execute(sql`
      INSERT INTO inbound_messages (team_id, from_number, body, source, received_at)
      SELECT ${user.teamId}, '4477' || lpad(i::text, 8, '0'), 'Hello', 'gateway', ${now}::timestamptz - (i % ${DAYS * 24}) * interval '1 hour'
        FROM generate_series(1, 100000) i`);
    await db.execute(sql`
      INSERT INTO opt_out_events (team_id, phone_number, kind, source, campaign_id, created_at)
      SELECT ${user.teamId}, '4477' || lpad(i::text, 8, '0'), 'opt_out', 'keyword', ${sent}, ${now}::timestamptz - (i % ${DAYS * 24}) * interval '1 hour'
        FROM generate_series(1, 5000) i`);
    // The team's hourly counters: inbound messages and opt-outs counted by their triggers as they were
    // written; the messages added as migration 0030 adds those of an existing install.
    await db.execute(sql`
      INSERT INTO team_hourly_counts AS c (team_id, hour, sent, delivered, failed)
      SELECT ca.team_id, date_trunc('hour', m.submitted_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', count(*),
             count(*) FILTER (WHERE m.status = 'delivered'), count(*) FILTER (WHERE m.status = 'failed')
        FROM messages m JOIN campaigns ca ON ca.id = m.campaign_id GROUP BY 1, 2
      ON CONFLICT (team_id, hour) DO UPDATE SET sent = c.sent + EXCLUDED.sent, delivered = c.delivered + EXCLUDED.delivered, failed = c.failed + EXCLUDED.failed`);
    await db.execute(sql`VACUUM ANALYZE`);

    const day = (at: Date) => at.toISOString().slice(0, 10);
    const query = `from=${day(new Date(now.getTime() - (DAYS - 1) * 86_400_000))}&to=${day(now)}`;
    const timeOverview = async () => {
      const started = performance.now();
      const response = await fetch(`${origin}/api/2.0/overview?${query}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as { data: { totals: { sent: number; inbound_messages: number }; days: unknown[] } };
      if (response.status !== 200 || body.data.days.length !== DAYS) throw new Error(`overview: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
      if (body.data.totals.sent < MESSAGES * 0.95 || body.data.totals.inbound_messages < 95_000)
        throw new Error(`overview: ${body.data.totals.sent} sent and ${body.data.totals.inbound_messages} inbound, not ${MESSAGES} and 100,000`);
      return performance.now() - started;
    };
    // The floor: the same hourly counters summed by one bare query through pg (no HTTP, no JSON, no lists).
    const floorOverview = async () => {
      const started = performance.now();
      const { rows } = await database.pool.query(
        `SELECT sum(sent) AS sent, sum(delivered) AS delivered, sum(failed) AS failed FROM team_hourly_counts
          WHERE team_id = $1 AND hour >= now() - interval '${DAYS} days'`,
        [user.teamId],
      );
      if (rows.length !== 1) throw new Error('floor: no row');
      return performance.now() - started;
    };
    for (let i = 0; i < 20; i++) {
      await timeOverview();
      await floorOverview();
    }
    const times: number[] = [];
    const floors: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      times.push(await timeOverview());
      floors.push(await floorOverview());
    }
    times.sort((a, b) => a - b);
    floors.sort((a, b) => a - b);
    const label = `GET /overview for ${DAYS} days (${MESSAGES.toLocaleString('en-GB')} messages) over HTTP`;
    const floorLabel = 'one bare query summing the same hourly counters through pg';
    emitResult({
      bench: 'overview',
      figures: [
        { key: 'overview.p50', label: `${label}, median`, unit: 'ms', value: percentile(times, 50), floor: percentile(floors, 50), floorLabel, digits: 1 },
        {
          key: 'overview.p99',
          label: `${label}, p99`,
          unit: 'ms',
          value: percentile(times, 99),
          floor: percentile(floors, 99),
          floorLabel,
          target: { on: 'value', op: '<=', value: 50 },
          digits: 1,
        },
      ],
    });
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
