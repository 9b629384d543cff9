/**
 * Herald in this process for the dashboard benchmark: a fresh embedded PostgreSQL, the built dashboard
 * (dist/app) served by the app itself on a random port, one signed-up user and a team of 1,000 campaigns.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Campaign } from '../../src/shared/contract';
import { formatTimestamp } from '../../src/shared/time/local-timestamps';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open';
import { adminAuthOf } from '../lib/herald';

export const CREDENTIALS = { email: 'bench@herald.test', password: 'bench-password-for-the-dashboard' };

export interface BenchHerald {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** What the campaigns list shows first: page 1 (15 rows, newest first) and the team's group names. */
  firstPage: { campaigns: Campaign[]; total: number; groupNames: Map<string, string> };
  postgresVersion: string;
  close(): Promise<void>;
}

const PLACES = ['London', 'Leeds', 'Bristol', 'Glasgow', 'Cardiff', 'Belfast', 'Manchester', 'Norwich'];
const OCCASIONS = [
  'Spring sale',
  'Summer clearance',
  'Loyalty reward',
  'Appointment reminder',
  'New store opening',
  'Black Friday',
  'Back to school',
  'Winter offers',
  'Survey invitation',
  'Order update',
];
const SENDERS = ['HeraldShop', 'Herald', '88440', 'HRLD Deals'];

export async function startHerald(campaignCount: number): Promise<BenchHerald> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-bench-dashboard-'));
  await fs.chmod(dataDir, 0o755);
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000', LOGIN_RATE_LIMIT_PER_MINUTE: '1000' });
  const database = await openDatabase(config);
  let app: Awaited<ReturnType<typeof buildApp>>['app'] | undefined;
  const close = async () => {
    await app?.close();
    await database.shutdown();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  try {
    // No dashboardDir: the app serves dist/app, as `npm start` does.
    const built = await buildApp({ config, database, secretKey: randomBytes(32), logger: false });
    app = built.app;
    const { services } = built;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    const user = await services.users.create({ ...CREDENTIALS, name: 'Bench Marketer', teamName: 'Bench' });
    const auth = adminAuthOf(user);
    const templates = await Promise.all(
      OCCASIONS.slice(0, 4).map((occasion, index) =>
        services.templates.create(auth, {
          name: occasion,
          body: `Hi {{first_name}}, ${occasion.toLowerCase()} at Herald: ::OFFER:: Reply STOP to opt out.`,
          sender: SENDERS[index]!,
          force_utf8: false,
        }),
      ),
    );
    const groups: { uuid: string; name: string }[] = [];
    for (const place of PLACES) groups.push(await services.contactGroups.create(auth, { name: `${place} customers`, headers: ['first_name'] }));
    const vip = await services.contactGroups.create(auth, { name: 'VIP', headers: ['first_name'] });

    // Through the service (same validation and rows as the API), a few at a time.
    const now = Date.now();
    const day = 86_400_000;
    const zone = config.appTimezone;
    const made: { uuid: string; sendAt: number; throttled: boolean }[] = [];
    const createOne = async (i: number) => {
      // Three a day: most are in the past (sent), a few are sending now, the last ten days' worth still to come.
      const sendAt = now + (i - campaignCount * 0.97) * (day / 3) + (i % 7) * 3_600_000;
      const throttled = i % 6 === 0;
      const input = {
        name: `${OCCASIONS[i % OCCASIONS.length]} — ${PLACES[i % PLACES.length]} #${i + 1}`,
        sender: SENDERS[i % SENDERS.length]!,
        template_uuid: templates[i % templates.length]!.uuid,
        scheduled_send_date: formatTimestamp(new Date(sendAt), zone),
        expiry_date: formatTimestamp(new Date(sendAt + 3 * day), zone),
        included_contact_groups: [groups[i % groups.length]!.uuid, ...(i % 4 === 0 ? [groups[(i + 3) % groups.length]!.uuid] : [])],
        excluded_contact_groups: i % 5 === 0 ? [vip.uuid] : [],
        throttled,
        ...(throttled ? { scheduled_finish_date: formatTimestamp(new Date(sendAt + day), zone) } : {}),
      };
      const campaign = await services.campaigns.create(auth, input);
      made.push({ uuid: campaign.uuid, sendAt, throttled });
    };
    for (let i = 0; i < campaignCount; i += 8) await Promise.all(Array.from({ length: Math.min(8, campaignCount - i) }, (_, k) => createOne(i + k)));

    // As the engine leaves them: sent in the past, sending around now (some throttled ones paused by hand).
    // A third were sent at once (made minutes before their send time), the others scheduled 1–20 days
    // ahead, none made in the future: the list (newest made first) mixes the three states.
    const { db } = database;
    const values = made.map(({ uuid, sendAt, throttled }, i) => {
      const status = sendAt + day < now ? 2 : sendAt <= now ? 1 : 0;
      const paused = status === 1 && throttled && i % 12 === 0 ? true : null;
      const lead = i % 3 === 0 ? 10 * 60_000 : (1 + ((i * 7) % 20)) * day;
      const createdAt = new Date(Math.min(sendAt - lead, now - ((i * 37) % 240) * 3_600_000));
      return sql`(${uuid}::uuid, ${status}::smallint, ${createdAt}::timestamptz, ${paused}::boolean)`;
    });
    await db.execute(sql`
      UPDATE campaigns c
         SET status = v.status, created_at = v.created_at, updated_at = v.created_at, manually_paused = v.paused,
             started_sending_at = CASE WHEN v.status > 0 THEN c.scheduled_send_date END,
             finished_sending_at = CASE WHEN v.status = 2 THEN c.scheduled_send_date + interval '25 minutes' END
        FROM (VALUES ${sql.join(values, sql`, `)}) AS v (uuid, status, created_at, paused)
       WHERE c.uuid = v.uuid`);
    await db.execute(sql`VACUUM ANALYZE campaigns`);

    const page = await services.campaigns.list(auth, { limit: 15, offset: 0 });
    const groupNames = new Map([...groups, vip].map((group) => [group.uuid, group.name]));
    const { rows } = await db.execute<{ server_version: string }>(sql`SHOW server_version`);
    return { origin, firstPage: { campaigns: page.items, total: page.total, groupNames }, postgresVersion: rows[0]?.server_version ?? '?', close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
