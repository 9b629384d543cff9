/**
 * Frequency caps benchmark (issue 36, point 3): a team with 100,000 contacts (one group), 1,000,000
 * messages of ten past campaigns handed over within the last 14 days (each number had ten) and
 * 100,000 flows' marketing messages, on a fresh embedded PostgreSQL. A campaign to the group is
 * started, then the engine's claim of 500 messages is timed, each batch settled as handed over
 * before the next: median of 20 claims with the team's cap on (4 messages in 7 days: every number
 * counted, about a third of them capped), against the same claims without a cap (the floor). Prints the
 * plan of the cap's count over one batch's numbers, to show it goes along the indexes.
 * Run: `npm run bench:caps [contacts]`.
 */
import { sql } from 'drizzle-orm';
import { connectDatabase } from '../src/server/db/client';
import { startEmbeddedPostgres } from '../src/server/db/embedded';
import { marketingCounts } from '../src/server/engine/store/frequency-caps';
import { createEngineStore } from '../src/server/engine/store/postgres-store';
import { startBenchHerald } from './lib/herald';
import { emitResult, median } from './lib/result';

const CONTACTS = Number(process.argv[2] ?? 100_000);
const PAST_CAMPAIGNS = 20;
const BATCH = 500;
const SAMPLES = 20;

async function main(): Promise<void> {
  const { db, database, dataDir, auth, user, services, close } = await startBenchHerald('caps');
  try {
    const template = await services.templates.create(auth, { name: 'Bench', body: 'Winter sale, 20% off.', sender: 'Herald' });
    const group = await services.contactGroups.create(auth, { name: 'Everyone', headers: [] });
    const now = new Date();
    console.log(`writing ${CONTACTS} contacts, ${(CONTACTS * PAST_CAMPAIGNS) / 2} past messages and ${CONTACTS} flows' messages…`);
    await db.execute(sql`
      INSERT INTO contacts (contact_group_id, phone_number, custom_fields, created_at, updated_at)
      SELECT g.id, '4477' || lpad(i::text, 8, '0'), '{}', ${now}, ${now}
        FROM contact_groups g, generate_series(1, ${CONTACTS}) i WHERE g.uuid = ${group.uuid}`);
    await db.execute(sql`UPDATE contact_groups SET contact_count = ${CONTACTS} WHERE uuid = ${group.uuid}`);
    // Twenty past campaigns, one every 1.4 days over the last 28 days, each to every other number.
    for (let c = 0; c < PAST_CAMPAIGNS; c++) {
      const sentAt = new Date(now.getTime() - (c * 1.4 + 0.5) * 86_400_000);
      const past = await db.execute<{ id: number }>(sql`
        INSERT INTO campaigns (team_id, template_id, name, sender, scheduled_send_date, expiry_date, status, message_count, next_sequence, anchor_sequence,
                               started_sending_at, finished_sending_at)
        SELECT ${user.teamId}, t.id, ${`Past ${c}`}, 'Herald', ${sentAt}, ${now}, 2, ${CONTACTS / 2}, ${CONTACTS / 2 + 1}, ${CONTACTS / 2 + 1}, ${sentAt}, ${sentAt}
          FROM templates t WHERE t.uuid = ${template.uuid} RETURNING id`);
      await db.execute(sql`
        INSERT INTO messages (campaign_id, sequence, phone_number, status, submitted_at, finished_at)
        SELECT ${past.rows[0]!.id}, i, '4477' || lpad((2 * i - ${c % 2})::text, 8, '0'), 'delivered', ${sentAt}, ${sentAt}
          FROM generate_series(1, ${CONTACTS / 2}) i`);
    }
    await db.execute(sql`
      INSERT INTO outbound_replies (team_id, to_number, sender, body, status, kind, marketing, created_at, updated_at)
      SELECT ${user.teamId}, '4477' || lpad(i::text, 8, '0'), 'Herald', 'We miss you', 'delivered', 'flow', true,
             ${now}::timestamptz - (i % 10) * interval '1 day', ${now}
        FROM generate_series(1, ${CONTACTS}) i`);
    const owner = connectDatabase((await startEmbeddedPostgres(dataDir, { borrow: true })).url, { max: 1 });
    try {
      await owner.pool.query('VACUUM ANALYZE');
    } finally {
      await owner.pool.end();
    }

    const store = createEngineStore(db);
    const campaign = await services.campaigns.create(auth, {
      name: 'Capped',
      sender: 'Herald',
      template_uuid: template.uuid,
      scheduled_send_date: '2099-01-01 09:00:00',
      expiry_date: '2099-01-02 09:00:00',
      included_contact_groups: [group.uuid],
      excluded_contact_groups: [],
    });
    await db.execute(sql`UPDATE campaigns SET scheduled_send_date = ${new Date()}, throttled = true WHERE uuid = ${campaign.uuid}`);
    await store.startDue(new Date());
    const [{ id: campaignId }] = (await database.pool.query(`SELECT id::int AS id FROM campaigns WHERE uuid = $1`, [campaign.uuid])).rows as [{ id: number }];

    let gatewayIds = 0;
    let capped = 0;
    /** One claim of a batch, timed; the batch then settled as handed over (outside the time). */
    const timeClaim = async () => {
      const started = performance.now();
      const batch = await store.claim(campaignId, BATCH, 'bench', new Date(), 60_000, 'resend');
      const ms = performance.now() - started;
      if (!batch) throw new Error('nothing left to claim');
      capped += BATCH - batch.messages.length;
      const submitted = batch.messages.map((m) => ({ id: m.id, body: 'Winter sale, 20% off.', gatewayId: `g${++gatewayIds}` }));
      await store.settle(batch, { submitted, rejected: [], notSent: [], inDoubt: [] }, 'resend', new Date(), 'bench');
      return ms;
    };
    const setCap = (on: boolean) =>
      db.execute(sql`UPDATE teams SET frequency_cap_messages = ${on ? 4 : null}, frequency_cap_days = ${on ? 7 : null} WHERE id = ${user.teamId}`);

    await setCap(false);
    await timeClaim();
    const without: number[] = [];
    const withCap: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      await setCap(false);
      without.push(await timeClaim());
      await setCap(true);
      withCap.push(await timeClaim());
    }
    if (capped === 0) throw new Error('the cap skipped nobody: the data set is not what it should be');

    // The plan of the count over the next batch's numbers.
    const phones = (
      await database.pool.query(`SELECT phone_number FROM messages WHERE campaign_id = $1 AND status = 'queued' ORDER BY sequence LIMIT ${BATCH}`, [campaignId])
    ).rows.map((row: { phone_number: string }) => row.phone_number);
    const plan = await db.execute(sql`EXPLAIN (ANALYZE, COSTS OFF) ${marketingCounts(user.teamId, phones, { messages: 4, days: 7 }, new Date(), null)}`);
    console.log(plan.rows.map((row) => (row as { 'QUERY PLAN': string })['QUERY PLAN']).join('\n'));

    emitResult({
      bench: 'frequency-caps',
      figures: [
        {
          key: 'caps.claim',
          label: `The engine's claim of ${BATCH} messages with a frequency cap (4 in 7 days) over ${CONTACTS.toLocaleString('en-GB')} numbers, ${((CONTACTS * PAST_CAMPAIGNS) / 2).toLocaleString('en-GB')} past campaign messages and ${CONTACTS.toLocaleString('en-GB')} flows' messages (${capped.toLocaleString('en-GB')} of ${(SAMPLES * BATCH).toLocaleString('en-GB')} capped), median of ${SAMPLES}`,
          unit: 'ms',
          value: median(withCap),
          floor: median(without),
          floorLabel: 'the same claim without a cap',
          target: { on: 'ratio', op: '<=', value: 3 },
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
