import type { TestApp } from './test-app';

/**
 * Runs `run` while writing an audit event for `action` fails (a trigger on audit_events raises, as
 * a full disk or a lost connection would at that moment): a change recorded in its own transaction
 * is then undone with it.
 */
export async function refusingAudit<T>(t: TestApp, action: string, run: () => Promise<T>): Promise<T> {
  const pool = t.database.pool;
  await pool.query(`
    CREATE OR REPLACE FUNCTION audit_refused() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'audit refused for the test'; END $$`);
  await pool.query(`CREATE TRIGGER audit_refused BEFORE INSERT ON audit_events FOR EACH ROW WHEN (NEW.action = '${action}') EXECUTE FUNCTION audit_refused()`);
  try {
    return await run();
  } finally {
    await pool.query(`DROP TRIGGER audit_refused ON audit_events`);
  }
}
