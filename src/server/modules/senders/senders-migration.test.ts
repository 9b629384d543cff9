import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { migrate, migrationFiles, readMigration } from '../../db/migrate';
import { emptyDatabase } from '../../testing/empty-database';

// Migration 0037 on a database of the releases before it, holding the data they let anyone write:
// templates and campaigns sending as senders not on the team's list. Seen red with the migration's
// INSERT removed (the teams' lists stayed as they were).
const name = `herald_senders_migration_${process.pid}`;
const MIGRATION = '0037_senders_in_use.sql';
let database: Database;

let drop: () => Promise<void>;

beforeAll(async () => {
  ({ database, drop } = await emptyDatabase(name));
});
afterAll(() => drop());

describe(MIGRATION, () => {
  it('registers, for each team, the senders its templates and campaigns already send as, once each', async () => {
    const pool = database.pool;
    await pool.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const file of (await migrationFiles()).filter((f) => f < MIGRATION)) {
      await pool.query(await readMigration(file));
      await pool.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    }
    const team = async (teamName: string) => Number((await pool.query('INSERT INTO teams (name) VALUES ($1) RETURNING id', [teamName])).rows[0].id);
    const acme = await team('Acme');
    const other = await team('Other');
    await pool.query("INSERT INTO senders (team_id, sender) VALUES ($1, '88440'), ($1, 'Acme')", [acme]);
    const template = async (teamId: number, sender: string) =>
      Number((await pool.query("INSERT INTO templates (team_id, name, body, sender) VALUES ($1, 'T', 'Hi', $2) RETURNING id", [teamId, sender])).rows[0].id);
    const acmeTemplate = await template(acme, 'HSBC');
    await template(acme, 'Acme');
    await template(other, 'OtherBrand');
    const campaign = (teamId: number, templateId: number, sender: string) =>
      pool.query(
        "INSERT INTO campaigns (team_id, template_id, name, sender, scheduled_send_date, expiry_date) VALUES ($1, $2, 'C', $3, now(), now() + interval '1 day')",
        [teamId, templateId, sender],
      );
    await campaign(acme, acmeTemplate, 'OldSale');
    await campaign(acme, acmeTemplate, 'HSBC');
    await campaign(acme, acmeTemplate, 'OldSale');

    expect((await migrate(pool)).map((m) => m.name)).toContain(MIGRATION);

    const listed = async (teamId: number) =>
      (await pool.query('SELECT sender FROM senders WHERE team_id = $1 ORDER BY sender', [teamId])).rows.map((row) => row.sender as string);
    expect(await listed(acme)).toEqual(['88440', 'Acme', 'HSBC', 'OldSale']);
    expect(await listed(other)).toEqual(['OtherBrand']);
  });
});
