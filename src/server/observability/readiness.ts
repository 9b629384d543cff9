import type { Database } from '../db/client';
import { pendingMigrations } from '../db/migrate';
import { withTimeout, type ObservedGateway } from './metrics';

/** One condition of readiness: met (`ok`), not met (`failing`, with why), or not this process's concern (`skipped`). */
export type CheckResult = { status: 'ok' | 'failing' | 'skipped'; detail?: string };
export type Readiness = { ready: boolean; checks: { database: CheckResult; migrations: CheckResult; sms_gateway: CheckResult } };

/** What readiness may wait for the database; beyond it the database counts as unreachable. */
const DATABASE_TIMEOUT_MS = 2_000;

/**
 * Whether this process can do its work now, condition by condition: the database answers, its
 * schema has every migration this version ships, and (in a process that sends) the SMS gateway is
 * bound. An API process has no gateway: its check is `skipped`.
 */
export async function checkReadiness(deps: { database: Database; gateway: ObservedGateway | undefined; timeoutMs?: number }): Promise<Readiness> {
  const timeoutMs = deps.timeoutMs ?? DATABASE_TIMEOUT_MS;
  let database: CheckResult;
  let migrations: CheckResult;
  try {
    const pending = await withTimeout(pendingMigrations(deps.database.pool), timeoutMs);
    database = { status: 'ok' };
    migrations =
      pending.length === 0
        ? { status: 'ok' }
        : {
            status: 'failing',
            detail: `${pending.length} migration(s) not applied (${pending.join(', ')}): start one Herald process of this version to apply them.`,
          };
  } catch {
    // Not the error itself: the body is public, and the error can name the database's address.
    database = { status: 'failing', detail: `unreachable: no answer within ${timeoutMs} ms, or the connection was refused` };
    migrations = { status: 'failing', detail: 'unknown: the database is unreachable' };
  }
  const gateway = deps.gateway;
  const smsGateway: CheckResult = !gateway
    ? { status: 'skipped', detail: 'this process does not send (--role api)' }
    : gateway.connected()
      ? { status: 'ok' }
      : { status: 'failing', detail: 'not bound: the SMPP link is down (reconnecting)' };
  const checks = { database, migrations, sms_gateway: smsGateway };
  return { ready: Object.values(checks).every((check) => check.status !== 'failing'), checks };
}
