/**
 * Segments benchmark (issue 35, point 1): a team with 1,000,000 contacts (one group; a tenth in
 * London) and 5,000,000 messages of a past campaign over the last 60 days (set-based
 * INSERT…SELECT generate_series), on a fresh embedded PostgreSQL. Measures, over real HTTP, the count
 * of a three-condition segment with one behaviour condition (`city` equals london, country GB,
 * delivered within the last 7 days): `POST /api/2.0/segments/count`, median of 5 after a warm-up;
 * its floor, one bare query counting the group's contacts through pg. Then a campaign to that segment
 * alone, due now: the engine's start (`startDue`: the audience evaluated and fixed in
 * campaign_audience, the first 5,000 messages written), timed from the send time to its commit.
 * Run: `npm run bench:segments [contacts] [messages]`.
 */
import { sql } from 'drizzle-orm';
import { connectDatabase } from '../src/server/db/client';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { createEngineStore } from '../src/server/engine/store/postgres-store';
import { startBenchHerald } from './lib/herald';
import { emitResult, median } from './lib/result';

const CONTACTS = Number(process.argv[2] ?? 1_000_000);
const MESSAGES = Number(process.argv[3] ?? 5_000_000);
const SAMPLES = 5;
const DAYS = 60;

async function main(): Promise<void> {
  const { db, database, dataDir, origin, token, auth, user, services, close } = await startBenchHerald('segments', { RATE_LIMIT_PER_MINUTE: '1000000' });
  try {
    const template = await services.templates.create(auth, { name: 'Bench', body: 'Hello {{first_name}}, this is Herald.', sender: 'Herald' });
    const group = await services.contactGroups.create(auth, { name: 'Everyone', headers: ['first_name', 'city'] });
    const now = new Date();
    console.log(`writing ${CONTACTS} contacts and ${MESSAGES} messages…`);
    await db.execute(sql`
      INSERT INTO contacts (contact_group_id, phone_number, custom_fields, created_at, updated_at)
      SELECT g.id, '4477' || lpad(i::text, 8, '0'),
             jsonb_build_object('first_name', 'N' || i, 'city', CASE WHEN i % 10 = 0 THEN 'London' ELSE 'Leeds' END), ${now}, ${now}
        FROM contact_groups g, generate_series(1, ${CONTACTS}) i WHERE g.uuid = ${group.uuid}`);
    await db.execute(sql`UPDATE contact_groups SET contact_count = ${CONTACTS} WHERE uuid = ${group.uuid}`);
    const past = await db.execute<{ id: number }>(sql`
      INSERT INTO campaigns (team_id, template_id, name, sender, scheduled_send_date, expiry_date, status, message_count, next_sequence, anchor_sequence)
      SELECT ${user.teamId}, t.id, 'Past', 'Herald', ${new Date(now.getTime() - DAYS * 86_400_000)}, ${now}, 2, ${MESSAGES}, ${MESSAGES + 1}, ${MESSAGES + 1}
        FROM templates t WHERE t.uuid = ${template.uuid} RETURNING id`);
    const pastId = past.rows[0]!.id;
    // Five messages a number, spread over the 60 days: a number's are a day apart, so about one in
    // eight numbers had one delivered within the last 7 days.
    await db.execute(sql`
      INSERT INTO messages (campaign_id, sequence, phone_number, status, submitted_at, finished_at)
      SELECT ${pastId}, i, '4477' || lpad((1 + (i - 1) % ${CONTACTS})::text, 8, '0'),
             CASE WHEN i % 20 = 0 THEN 'failed' ELSE 'delivered' END,
             ${now}::timestamptz - ((i::bigint * 7919) % ${DAYS * 24}) * interval '1 hour', ${now}::timestamptz - ((i::bigint * 7919) % ${DAYS * 24}) * interval '1 hour' + interval '3 seconds'
        FROM generate_series(1, ${MESSAGES}) i`);
    // Vacuumed and analysed as a day-old table would be by autovacuum. As the tables' owner: PostgreSQL
    // lets only the owner vacuum a table, and skips every other with a warning for the application role.
    const owner = connectDatabase((await startEmbeddedPostgres(dataDir, { borrow: true })).url, { max: 1 });
    try {
      await owner.pool.query('VACUUM ANALYZE');
    } finally {
      await owner.pool.end();
    }

    const body = {
      name: 'Londoners delivered this week',
      match: 'all',
      conditions: [
        { type: 'field', field: 'city', op: 'equals', value: 'london' },
        { type: 'country', op: 'in', values: ['GB'] },
        { type: 'event', event: 'delivered', within_days: 7 },
      ],
    };
    let count = 0;
    const timeCount = async () => {
      const started = performance.now();
      const response = await fetch(`${origin}/api/2.0/segments/count`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
      const answer = (await response.json()) as { data: { count: number } };
      if (response.status !== 200) throw new Error(`count: ${response.status} ${JSON.stringify(answer)}`);
      count = answer.data.count;
      return performance.now() - started;
    };
    const floorCount = async () => {
      const started = performance.now();
      await database.pool.query(`SELECT count(*) FROM contacts c JOIN contact_groups g ON g.id = c.contact_group_id WHERE g.uuid = $1`, [group.uuid]);
      return performance.now() - started;
    };
    await timeCount();
    await floorCount();
    const times: number[] = [];
    const floors: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      times.push(await timeCount());
      floors.push(await floorCount());
    }
    if (count < CONTACTS / 100) throw new Error(`the segment counted ${count}: the data set is not what it should be`);

    // A campaign to the segment alone, due now; its start timed from the send time.
    const segment = await services.segments.create(auth, body as Parameters<typeof services.segments.create>[1]);
    const store = createEngineStore(db);
    const campaign = await services.campaigns.create(auth, {
      name: 'To the segment',
      sender: 'Herald',
      template_uuid: template.uuid,
      scheduled_send_date: '2099-01-01 09:00:00',
      expiry_date: '2099-01-02 09:00:00',
      included_contact_groups: [],
      excluded_contact_groups: [],
      included_segments: [segment.uuid],
    });
    const sendAt = new Date();
    await db.execute(sql`UPDATE campaigns SET scheduled_send_date = ${sendAt} WHERE uuid = ${campaign.uuid}`);
    const started = performance.now();
    await store.startDue(new Date());
    const startMs = performance.now() - started;
    const written = await database.pool.query(
      `SELECT (SELECT count(*) FROM campaign_audience a JOIN campaigns k ON k.id = a.campaign_id WHERE k.uuid = $1)::int AS fixed,
              (SELECT count(*) FROM messages m JOIN campaigns k ON k.id = m.campaign_id WHERE k.uuid = $1)::int AS messages`,
      [campaign.uuid],
    );
    const { fixed, messages } = written.rows[0] as { fixed: number; messages: number };
    if (fixed !== count || messages === 0) throw new Error(`start: ${fixed} fixed and ${messages} written, the segment counted ${count}`);

    const label = `POST /segments/count, three conditions (one behaviour) over ${CONTACTS.toLocaleString('en-GB')} contacts and ${MESSAGES.toLocaleString('en-GB')} messages (${count.toLocaleString('en-GB')} match), median of ${SAMPLES}`;
    emitResult({
      bench: 'segments',
      figures: [
        {
          key: 'segments.count',
          label,
          unit: 'ms',
          value: median(times),
          floor: median(floors),
          floorLabel: "one bare query counting the group's contacts through pg",
          target: { on: 'value', op: '<=', value: 1000 },
          digits: 0,
        },
        {
          key: 'segments.start',
          label: `A campaign to that segment: from the send time to its start committed (${fixed.toLocaleString('en-GB')} recipients fixed, the first ${messages.toLocaleString('en-GB')} messages written)`,
          unit: 'ms',
          value: startMs,
          target: { on: 'value', op: '<=', value: 2000 },
          digits: 0,
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
