import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { crashableHerald, type CrashableHerald } from '../../testing/processes';

// Flows as they run for real: Herald in a child process, its runs started by numbers joining a
// group, killed with SIGKILL while the first messages go out and again while the runs wait, and
// started again each time. What the simulator received is counted per message as it arrived
// (`submissions` counts every hand-over), so each run's two messages must be there exactly once.
//
// Whether a kill lands in the middle of an advance's batch is up to timing; the guarantees it leans
// on (a batch's effects commit with its moves, two advances never do one step twice) are proven to
// fail without their protections in flows.test.ts.
const RUNS = 120;
let herald: CrashableHerald;

beforeAll(async () => {
  herald = await crashableHerald('flows', {
    SMS_RATE_LIMIT: '30',
    ENGINE_TICK_MS: '100',
    ENGINE_LEASE_MS: '1000',
    SMS_SIMULATOR_LATENCY_MS: '5',
  });
});
afterAll(() => herald.dispose());

describe('a crash while flows run', { timeout: 300_000 }, () => {
  it('sends each run’s messages exactly once across two kills and restarts', async () => {
    await herald.start();
    const api = await herald.signIn();
    const first = (await api('POST', '/templates/', { name: 'First', body: 'Welcome {{first_name}}', sender: 'Herald' })).data.uuid;
    const second = (await api('POST', '/templates/', { name: 'Second', body: 'Still there {{first_name}}?', sender: 'Herald' })).data.uuid;
    const group = (await api('POST', '/contact-groups/', { name: 'Joiners' })).data.uuid;
    const flow = (
      await api('POST', '/flows/', {
        name: 'Welcome',
        enabled: true,
        trigger: { type: 'group_joined', group_uuid: group },
        steps: [
          { type: 'send', template_uuid: first },
          { type: 'wait', minutes: 1 },
          { type: 'send', template_uuid: second },
        ],
      })
    ).data.uuid as string;
    const contacts = Array.from({ length: RUNS }, (_, i) => ({ phone_number: `07700${String(900000 + i)}`, custom_fields: { first_name: `N${i}` } }));
    expect((await api('PUT', `/contact-groups/${group}/add-contacts`, { contacts })).data.number_of_contacts).toBe(RUNS);

    const db = await herald.database();
    try {
      const delivered = `SELECT d.to_number, d.body, d.submissions FROM simulator_deliveries d JOIN outbound_replies r ON r.uuid::text = d.client_ref WHERE r.kind = 'flow'`;
      const count = async () => (await db.query(`SELECT count(*)::int AS n FROM (${delivered}) d`)).rows[0].n as number;

      // Killed while the first messages go out (30 a second: a few seconds in).
      await vi.waitFor(async () => expect(await count()).toBeGreaterThanOrEqual(20), { timeout: 90_000, interval: 100 });
      await herald.crashAndRestart();

      // Killed again once every first message went, while the runs wait.
      await vi.waitFor(async () => expect(await count()).toBeGreaterThanOrEqual(RUNS), { timeout: 90_000, interval: 200 });
      await herald.crashAndRestart();

      const again = await herald.signIn();
      await vi.waitFor(async () => expect((await again('GET', `/flows/${flow}`)).data.runs).toEqual({ active: 0, completed: RUNS, exited: 0 }), {
        timeout: 150_000,
        interval: 500,
      });
      await vi.waitFor(async () => expect(await count()).toBe(2 * RUNS), { timeout: 60_000, interval: 200 });
      const sent = await db.query(
        `SELECT count(*)::int AS total, count(DISTINCT (to_number, body))::int AS distinct_messages, max(submissions)::int AS most,
                count(*) FILTER (WHERE body LIKE 'Welcome N%')::int AS firsts, count(*) FILTER (WHERE body LIKE 'Still there N%')::int AS seconds
           FROM (${delivered}) d`,
      );
      expect(sent.rows[0]).toEqual({ total: 2 * RUNS, distinct_messages: 2 * RUNS, most: 1, firsts: RUNS, seconds: RUNS });
    } finally {
      await db.end();
    }
  });
});
