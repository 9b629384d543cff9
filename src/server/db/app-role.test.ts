/**
 * Herald serves with a database role that cannot change or delete audit events (issue 32, point 5):
 * the app is opened as production opens an external database, DATABASE_URL an application role and
 * DATABASE_MIGRATION_URL the owner; on the very pool the app serves with, UPDATE, DELETE and
 * TRUNCATE of `audit_events` are refused by privilege (not only by the table's trigger), while the
 * app still writes and reads its events and its other tables.
 *
 * Seen red: with the REVOKE on audit_events left out of grantAppRole (db/roles.ts), UPDATE and
 * DELETE reached the trigger ("audit events cannot be changed or deleted"), not "permission denied".
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../testing/test-app';

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({}, { appRole: true });
  admin = await t.user({ team: 'Role Co' });
});
afterAll(() => t.close());

/** The SQLSTATE and message the app's own pool gets for `statement`. */
async function refusal(statement: string): Promise<{ code: string; message: string }> {
  const error = await t.database.pool.query(statement).then(
    () => undefined,
    (e: unknown) => e as pg.DatabaseError,
  );
  expect(error, `${statement} was allowed`).toBeDefined();
  return { code: error!.code!, message: error!.message };
}

describe('the application role', () => {
  it('is the role the app serves with, and no superuser', async () => {
    const { rows } = await t.database.pool.query<{ role: string; superuser: boolean }>(
      'SELECT current_user AS role, rolsuper AS superuser FROM pg_roles WHERE rolname = current_user',
    );
    expect(rows[0]!.role).toMatch(/_app$/);
    expect(rows[0]!.superuser).toBe(false);
  });

  it('writes audit events but cannot update, delete or truncate them', async () => {
    const created = await t.request('POST', '/api/2.0/templates/', { token: admin.token, body: { name: 'Sale', body: 'Hi', sender: 'Acme' } });
    expect(created.statusCode, created.body).toBe(201);
    const events = await t.request('GET', '/api/2.0/audit-events?action=createTemplate', { token: admin.token });
    expect(events.json().data).toHaveLength(1);
    const before = (await t.database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events')).rows[0]!.n;
    expect(before).toBeGreaterThan(0);

    for (const statement of ["UPDATE audit_events SET action = 'nothing'", 'DELETE FROM audit_events', 'TRUNCATE audit_events']) {
      expect(await refusal(statement)).toEqual({ code: '42501', message: 'permission denied for table audit_events' });
    }
    const after = await t.database.pool.query<{ n: number; actions: string[] }>(
      'SELECT count(*)::int AS n, array_agg(DISTINCT action) AS actions FROM audit_events',
    );
    expect(after.rows[0]!.n).toBe(before);
    expect(after.rows[0]!.actions).toContain('createTemplate');
  });

  it('still changes and removes rows of the other tables, and cannot alter the schema', async () => {
    const created = await t.request('POST', '/api/2.0/templates/', { token: admin.token, body: { name: 'Gone', body: 'Hi', sender: 'Acme' } });
    const removed = await t.request('DELETE', `/api/2.0/templates/${created.json().data.uuid}`, { token: admin.token });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    expect((await refusal('ALTER TABLE audit_events DISABLE TRIGGER USER')).code).toBe('42501');
    expect((await refusal('DROP TABLE audit_events')).code).toBe('42501');
  });
});
