/**
 * Sending benchmark (issue #6): a 100,000-recipient campaign on a fresh embedded PostgreSQL,
 * simulator at zero latency, from the send time to status 2 with every receipt recorded; beside it,
 * in the same run, a bare-SQL floor writing the same rows. Run: `npx tsx bench/send.bench.ts [recipients]`
 * (one run; `npm run bench` runs it five times and writes BENCHMARKS.md).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/open';
import { createEngine } from '../src/server/engine/engine';
import { createEngineStore } from '../src/server/engine/engine-store';
import { createSimulatorLedger } from '../src/server/gateways/sms/simulator-ledger';
import { createSimulatorGateway } from '../src/server/gateways/sms/simulator';
import { createServices } from '../src/server/services';
import { formatTimestamp, systemClock } from '../src/server/lib/time';
import { emitResult } from './lib/result';

const RECIPIENTS = Number(process.argv[2] ?? 100_000);

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-bench-send-'));
  await fs.chmod(dataDir, 0o755);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const database = await openDatabase(config);
  const services = createServices(database, config, { secretKey: randomBytes(32) });
  const { db } = database;
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 50);
  try {
    const user = await services.users.create({ email: 'bench@herald.test', password: 'bench-password', teamName: 'Bench' });
    const auth = { userId: user.userId, userUuid: user.userUuid, teamId: user.teamId, teamUuid: user.teamUuid, tokenId: 0 };
    const template = await services.templates.create(auth, { name: 'Bench', body: 'Hello {{first_name}}, this is Herald.', sender: 'Herald' });
    const group = await services.contactGroups.create(auth, { name: 'Everyone', headers: ['first_name'] });
    const groupId = (await db.execute<{ id: number }>(sql`SELECT id FROM contact_groups WHERE uuid = ${group.uuid}`)).rows[0]!.id;
    await db.execute(sql`
      INSERT INTO contacts (contact_group_id, phone_number, custom_fields)
      SELECT ${groupId}, '4477' || lpad(i::text, 8, '0'), jsonb_build_object('first_name', 'N' || i) FROM generate_series(1, ${RECIPIENTS}) i`);
    await db.execute(sql`UPDATE contact_groups SET contact_count = ${RECIPIENTS} WHERE id = ${groupId}`);
    const now = new Date();
    const campaign = await services.campaigns.create(auth, {
      name: 'Bench',
      sender: 'Herald',
      scheduled_send_date: formatTimestamp(now, config.appTimezone),
      expiry_date: formatTimestamp(new Date(now.getTime() + 3_600_000), config.appTimezone),
      included_contact_groups: [group.uuid],
      excluded_contact_groups: [],
      template_uuid: template.uuid,
    });

    const gateway = createSimulatorGateway({ latencyMs: 0, failureRate: 0, ledger: createSimulatorLedger(db) });
    const engine = createEngine({
      store: createEngineStore(db),
      gateway,
      clock: systemClock,
      options: { tickMs: 1000, batchSize: Number(process.env.BENCH_BATCH ?? 5000), rateLimitPerSecond: 10_000_000, leaseMs: 30_000, lanes: Number(process.env.BENCH_LANES ?? 2) },
      urlBase: (domain) => services.vanityDomains.urlBase({ domain }),
    });
    console.log(`sending ${RECIPIENTS.toLocaleString('en-GB')} messages through the simulator…`);
    const started = performance.now();
    const settled = async () => {
      const { rows } = await db.execute<{ status: number; open: number }>(sql`
        SELECT c.status, (SELECT count(*)::int FROM messages m WHERE m.campaign_id = c.id AND m.status IN ('queued', 'submitted')) AS open
          FROM campaigns c WHERE c.uuid = ${campaign.uuid}`);
      return rows[0]!.status === 2 && rows[0]!.open === 0;
    };
    while (!(await settled())) await engine.tick();
    const seconds = (performance.now() - started) / 1000;
    await gateway.close();

    // The floor: the same rows written by bare SQL — messages inserted, the simulator's record of
    // each, messages submitted, then delivered — one set-based statement each.
    // The same table settings as messages (its fillfactor leaves room for updates beside each row).
    const { rows: settings } = await db.execute<{ options: string[] | null }>(sql`SELECT reloptions AS options FROM pg_class WHERE relname = 'messages'`);
    const options = settings[0]?.options?.length ? sql.raw(` WITH (${settings[0].options.join(', ')})`) : sql``;
    await db.execute(sql`CREATE TABLE floor_messages (LIKE messages INCLUDING ALL)${options}`);
    await db.execute(sql`CREATE TABLE floor_deliveries (LIKE simulator_deliveries INCLUDING ALL)`);
    const floorStarted = performance.now();
    await db.execute(sql`
      INSERT INTO floor_messages (campaign_id, sequence, phone_number, custom_fields)
      SELECT 0, row_number() OVER (ORDER BY phone_number), phone_number, custom_fields FROM contacts WHERE contact_group_id = ${groupId}`);
    await db.execute(sql`
      INSERT INTO floor_deliveries (client_ref, gateway_id, to_number, from_name, body)
      SELECT uuid, 'g' || id, phone_number, 'Herald', 'Hello' FROM floor_messages`);
    await db.execute(sql`UPDATE floor_messages SET status = 'submitted', body = 'Hello', gateway_id = 'g' || id, submitted_at = now()`);
    await db.execute(sql`UPDATE floor_messages SET status = 'delivered', finished_at = now()`);
    const floorSeconds = (performance.now() - floorStarted) / 1000;

    const { rows: versions } = await db.execute<{ version: string }>(sql`SELECT current_setting('server_version') AS version`);
    const floorLabel = 'bare SQL writing the same rows, one set-based statement each';
    emitResult({
      bench: 'send',
      meta: { postgres: `PostgreSQL ${versions[0]!.version}` },
      figures: [
        { key: 'send.rate', label: `Messages sent a second (${RECIPIENTS.toLocaleString('en-GB')} recipients, simulator)`, unit: 'msg/s', value: RECIPIENTS / seconds, floor: RECIPIENTS / floorSeconds, floorLabel, target: { on: 'value', op: '>=', value: 20_000 } },
        { key: 'send.seconds', label: 'Time from the send time to every receipt written', unit: 's', value: seconds, floor: floorSeconds, floorLabel, target: { on: 'ratio', op: '<=', value: 2 }, digits: 1 },
        { key: 'send.rss', label: 'Peak RSS of the process', unit: 'MiB', value: peakRss / 1024 / 1024 },
      ],
    });
  } finally {
    clearInterval(sampler);
    await database.shutdown();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

await main();
