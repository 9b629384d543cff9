/**
 * Flows benchmark (issue 36, point 2): 100,000 runs of one flow waiting on its wait step, whose wait
 * ends at once, each then to send a template rendered with its contact's fields. Timed from the
 * moment the waits end to every run's message queued (in outbound_replies, for the engine's reply
 * sender) and every run moved past the send, by the advance the job runner calls
 * (`flowAdvance.advanceDue`, batches of 1,000 in one transaction each). The target: within 60 s. Its
 * floor: the same rows written the simplest way, one set-based statement each through pg (the
 * messages rendered by SQL string concatenation, the runs moved, their history written).
 * Run: `npm run bench:flows [runs]`.
 */
import { sql } from 'drizzle-orm';
import { startBenchHerald } from './lib/herald';
import { emitResult } from './lib/result';

const RUNS = Number(process.argv[2] ?? 100_000);

async function main(): Promise<void> {
  const { db, database, auth, user, services, close } = await startBenchHerald('flows');
  try {
    const template = await services.templates.create(auth, { name: 'Follow-up', body: 'Hi {{first_name}}, still thinking about it?', sender: 'Herald' });
    const group = await services.contactGroups.create(auth, { name: 'Joiners', headers: ['first_name'] });
    const now = new Date();
    console.log(`writing ${RUNS} contacts and runs…`);
    await db.execute(sql`
      INSERT INTO contacts (contact_group_id, phone_number, custom_fields, created_at, updated_at)
      SELECT g.id, '4477' || lpad(i::text, 8, '0'), jsonb_build_object('first_name', 'N' || i), ${now}, ${now}
        FROM contact_groups g, generate_series(1, ${RUNS}) i WHERE g.uuid = ${group.uuid}`);
    await db.execute(sql`UPDATE contact_groups SET contact_count = ${RUNS} WHERE uuid = ${group.uuid}`);

    const seed = async (name: string) => {
      const flow = await services.flows.create(auth, {
        name,
        trigger: { type: 'api' },
        enabled: true,
        reentry: 'after_end',
        steps: [
          { type: 'wait', minutes: 60 },
          { type: 'send', template_uuid: template.uuid },
        ],
      });
      const waitId = flow.steps[0]!.id!;
      const dueAt = new Date(Date.now() + 3_000);
      // Every run entered the wait an hour ago; each wait ends at `dueAt`.
      await db.execute(sql`
        WITH runs AS (
          INSERT INTO flow_runs (flow_id, team_id, phone_number, trigger, step_id, due_at, started_at)
          SELECT f.id, ${user.teamId}, '4477' || lpad(i::text, 8, '0'), 'api', ${waitId}, ${dueAt}, ${now}::timestamptz - interval '1 hour'
            FROM flows f, generate_series(1, ${RUNS}) i WHERE f.uuid = ${flow.uuid}
          RETURNING id)
        INSERT INTO flow_run_steps (run_id, step_id, step_type, entered_at)
        SELECT id, ${waitId}, 'wait', ${now}::timestamptz - interval '1 hour' FROM runs`);
      await database.pool.query('ANALYZE flow_runs; ANALYZE flow_run_steps; ANALYZE contacts');
      return { flow, dueAt, waitId, sendId: flow.steps[1]!.id! };
    };

    // Herald: the advance, started when the waits end (the job runner's tick would start it within a few seconds).
    const herald = await seed('Herald');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, herald.dueAt.getTime() - Date.now())));
    const started = performance.now();
    let steps = 0;
    for (;;) {
      const moved = await services.flowAdvance.advanceDue({ batchSize: 1000, maxMs: 120_000 });
      steps += moved;
      if (moved === 0) break;
    }
    const heraldMs = performance.now() - started;
    const sent = await database.pool.query(
      `SELECT count(*)::int AS n FROM outbound_replies o JOIN flow_runs r ON r.id = o.flow_run_id JOIN flows f ON f.id = r.flow_id WHERE f.uuid = $1`,
      [herald.flow.uuid],
    );
    const completed = await database.pool.query(
      `SELECT count(*)::int AS n FROM flow_runs r JOIN flows f ON f.id = r.flow_id WHERE f.uuid = $1 AND r.state = 'completed'`,
      [herald.flow.uuid],
    );
    if (sent.rows[0].n !== RUNS || completed.rows[0].n !== RUNS)
      throw new Error(`${sent.rows[0].n} messages queued and ${completed.rows[0].n} runs completed of ${RUNS}`);

    // The floor: the same rows written by bare set-based SQL.
    const floor = await seed('Floor');
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, floor.dueAt.getTime() - Date.now())));
    const floorStarted = performance.now();
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query(`SELECT id FROM flows WHERE uuid = $1`, [floor.flow.uuid]);
      const flowId = rows[0].id as string;
      await client.query(
        `INSERT INTO outbound_replies (team_id, to_number, sender, body, kind, marketing, flow_run_id, flow_step_id)
         SELECT r.team_id, r.phone_number, 'Herald', 'Hi ' || (c.custom_fields->>'first_name') || ', still thinking about it?', 'flow', true, r.id, $2
           FROM flow_runs r JOIN contacts c ON c.phone_number = r.phone_number
          WHERE r.flow_id = $1 AND r.state = 'active' AND r.due_at <= now()`,
        [flowId, floor.sendId],
      );
      await client.query(`UPDATE flow_run_steps s SET done_at = now(), outcome = 'waited' FROM flow_runs r WHERE r.id = s.run_id AND r.flow_id = $1`, [flowId]);
      await client.query(
        `INSERT INTO flow_run_steps (run_id, step_id, step_type, entered_at, done_at, outcome) SELECT id, $2, 'send', now(), now(), 'sent' FROM flow_runs WHERE flow_id = $1`,
        [flowId, floor.sendId],
      );
      await client.query(`UPDATE flow_runs SET state = 'completed', step_id = NULL, due_at = NULL, ended_at = now() WHERE flow_id = $1`, [flowId]);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const floorMs = performance.now() - floorStarted;

    emitResult({
      bench: 'flows',
      figures: [
        {
          key: 'flows.advance',
          label: `Time from ${RUNS.toLocaleString('en-GB')} runs' wait ending to every run's message queued and the run completed (${steps.toLocaleString('en-GB')} steps, batches of 1,000)`,
          unit: 's',
          value: heraldMs / 1000,
          floor: floorMs / 1000,
          floorLabel: 'the same rows written by bare set-based SQL through pg, one statement each, in one transaction',
          target: { on: 'value', op: '<=', value: 60 },
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
