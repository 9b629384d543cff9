import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from './client';

type PlannerSwitch = 'enable_nestloop' | 'enable_seqscan' | 'enable_sort';

/**
 * Runs one statement with some of the planner's choices off, then turns them back on, in the same
 * transaction. For the engine's hot statements, whose good plan is known and whose statistics are
 * often wrong in the way that matters (a million messages written seconds ago, never analysed; a
 * sample of messages taken when none was `submitted`): with them, PostgreSQL picked a whole-group
 * sort for a 5,000-row chunk of an audience (1.2 s instead of 50 ms), a scan of every message for a
 * batch of receipts, or a nested loop that read a 5,000-row input once per message (seconds).
 * The rows come back unchecked: a caller that reads them parses them (`parseRows`).
 */
export async function withoutPlans(tx: Tx, off: PlannerSwitch[], statement: SQL): Promise<{ rows: unknown[]; rowCount: number | null }> {
  if (off.length === 0) {
    const result = await tx.execute(statement);
    return { rows: result.rows, rowCount: result.rowCount };
  }
  const set = (value: 'on' | 'off') =>
    sql.join(
      off.map((name) => sql`set_config(${name}, ${value}, true)`),
      sql`, `,
    );
  await tx.execute(sql`SELECT ${set('off')}`);
  // Turned back on after success only: a statement that failed aborted the transaction, which ends
  // the settings with it (they are local to it), and a statement after it would fail too and hide
  // the first error.
  const result = await tx.execute(statement);
  await tx.execute(sql`SELECT ${set('on')}`);
  return { rows: result.rows, rowCount: result.rowCount };
}
