import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatTimestamp } from '../lib/time';
import { crashableHerald, type ApiCall, type CrashableHerald } from '../testing/processes';

// The service as it runs for real, killed with SIGKILL in the middle of a send and started again.
// What the simulator received is counted per message uuid as it arrived (`submissions` counts every
// hand-over, even of one it recognised and did not send again), so a message handed over twice fails
// this test, where counting its rows did not. Whether the kill lands mid-hand-over is up to timing;
// the in-doubt paths are proven to fail without their protections in leases.test.ts.
const RECIPIENTS = 300;
let herald: CrashableHerald;
let api: ApiCall;

beforeAll(async () => {
  herald = await crashableHerald('crash', {
    SMS_RATE_LIMIT: '40',
    ENGINE_TICK_MS: '100',
    ENGINE_LEASE_MS: '1000',
    SMS_SIMULATOR_LATENCY_MS: '5',
  });
});
afterAll(() => herald.dispose());

describe('a crash in the middle of a send', { timeout: 180_000 }, () => {
  it('loses no recipient, sends none twice, and sends nothing after an expiry or inside a pause', async () => {
    await herald.start();
    api = await herald.signIn();

    const template = (await api('POST', '/templates/', { name: 'Crash', body: 'Hello {{first_name}}', sender: 'Herald' })).data.uuid;
    const groupOf = async (name: string, from: number, count: number) => {
      const group = (await api('POST', '/contact-groups/', { name })).data.uuid;
      const contacts = Array.from({ length: count }, (_, i) => ({
        phone_number: `07700${String(900000 + from + i)}`,
        custom_fields: { first_name: `N${from + i}` },
      }));
      expect((await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts })).data.number_of_contacts).toBe(count);
      return group;
    };
    const group = await groupOf('Everyone', 0, RECIPIENTS);
    const now = Date.now();
    const at = (ms: number) => formatTimestamp(new Date(now + ms), 'Europe/London');
    const create = async (body: Record<string, unknown>) =>
      (await api('POST', '/campaigns/', { sender: 'Herald', excluded_contact_groups: [], template_uuid: template, ...body })).data.uuid as string;
    const campaign = await create({ name: 'Crash test', scheduled_send_date: at(1000), expiry_date: at(3_600_000), included_contact_groups: [group] });
    // Beside it: one that expires a few seconds in (more than the cap lets go by then), and a
    // throttled one with a pause across the time of the crash and restart.
    const expiry = new Date(Math.ceil((now + 8_000) / 1000) * 1000);
    const expiring = await create({
      name: 'Expiring',
      scheduled_send_date: at(1000),
      expiry_date: formatTimestamp(expiry, 'Europe/London'),
      included_contact_groups: [await groupOf('Expiring', 1000, 400)],
    });
    const pause = { start: new Date(Math.ceil((now + 4_000) / 1000) * 1000), end: new Date(Math.ceil((now + 14_000) / 1000) * 1000) };
    const paused = await create({
      name: 'Throttled',
      scheduled_send_date: at(1000),
      expiry_date: at(3_600_000),
      throttled: true,
      scheduled_finish_date: at(24_000),
      pauses: [{ start_at: formatTimestamp(pause.start, 'Europe/London'), end_at: formatTimestamp(pause.end, 'Europe/London') }],
      included_contact_groups: [await groupOf('Throttled', 2000, 40)],
    });

    // Kill it once some, but not all, messages have gone (40 a second: a few seconds in).
    await vi.waitFor(
      async () => {
        const summary = (await api('GET', `/campaigns/${campaign}/summary`)).data;
        expect(summary.submitted + summary.delivered).toBeGreaterThanOrEqual(60);
      },
      { timeout: 60_000, interval: 100 },
    );
    await herald.crashAndRestart();
    for (const uuid of [campaign, expiring, paused]) {
      await vi.waitFor(async () => expect((await api('GET', `/campaigns/${uuid}`)).data.status).toBe(2), { timeout: 120_000, interval: 200 });
    }

    const db = await herald.database();
    try {
      // What the simulator handed on, per campaign, with the database's own clock.
      const deliveries = `SELECT c.uuid::text AS campaign, d.to_number, d.body, d.created_at, d.submissions FROM simulator_deliveries d
                            JOIN messages m ON m.uuid::text = d.client_ref JOIN campaigns c ON c.id = m.campaign_id`;
      const sent = await db.query(
        `SELECT count(*)::int AS total, count(DISTINCT to_number)::int AS numbers, count(*) FILTER (WHERE body LIKE 'Hello N%')::int AS personal,
                                          max(submissions)::int AS most FROM (${deliveries}) d WHERE campaign = $1`,
        [campaign],
      );
      expect(sent.rows[0]).toEqual({ total: RECIPIENTS, numbers: RECIPIENTS, personal: RECIPIENTS, most: 1 });
      const messages = await db.query(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE m.status IN ('submitted', 'delivered'))::int AS sent
                                         FROM messages m JOIN campaigns c ON c.id = m.campaign_id WHERE c.uuid = $1`,
        [campaign],
      );
      expect(messages.rows[0]).toEqual({ total: RECIPIENTS, sent: RECIPIENTS });
      const twice = await db.query(`SELECT to_number FROM simulator_deliveries GROUP BY to_number HAVING count(*) > 1`);
      expect(twice.rows).toEqual([]);

      // Nothing went out after the expiry (claims stop at it; a batch claimed just before is handed
      // over within moments, so a second's grace); what had not gone is unsent (pending).
      const late = await db.query(`SELECT count(*)::int AS n FROM (${deliveries}) d WHERE campaign = $1 AND created_at >= $2`, [
        expiring,
        new Date(expiry.getTime() + 1000),
      ]);
      expect(late.rows[0].n).toBe(0);
      const outcome = await db.query(
        `SELECT count(*) FILTER (WHERE m.status = 'unsent' AND m.reason = 'pending')::int AS unsent, count(*) FILTER (WHERE m.submitted_at IS NOT NULL)::int AS sent, count(*)::int AS total
           FROM messages m JOIN campaigns c ON c.id = m.campaign_id WHERE c.uuid = $1`,
        [expiring],
      );
      expect(outcome.rows[0].unsent).toBeGreaterThan(0);
      expect(outcome.rows[0].unsent + outcome.rows[0].sent).toBe(outcome.rows[0].total);

      // Nothing went out inside the pause (the same second's grace at its start), and everything went out in the end.
      const inPause = await db.query(`SELECT count(*)::int AS n FROM (${deliveries}) d WHERE campaign = $1 AND created_at >= $2 AND created_at < $3`, [
        paused,
        new Date(pause.start.getTime() + 1000),
        pause.end,
      ]);
      expect(inPause.rows[0].n).toBe(0);
      const throttled = await db.query(`SELECT count(*)::int AS n FROM (${deliveries}) d WHERE campaign = $1`, [paused]);
      expect(throttled.rows[0].n).toBe(40);
    } finally {
      await db.end();
    }
  });
});
