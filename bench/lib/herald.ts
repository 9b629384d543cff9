/**
 * Herald for a benchmark: a fresh embedded PostgreSQL in a temporary folder, the app listening on
 * a loopback port, and one user with a personal token. `close` stops and removes all of it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/open';
import type { AuthContext } from '../../src/server/http/auth';

export async function startBenchHerald(name: string, env: Record<string, string> = {}) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `herald-bench-${name}-`));
  await fs.chmod(dataDir, 0o755); // the database runs as the postgres user when started by root
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000000', ...env });
  const database = await openDatabase(config);
  const { app, services } = await buildApp({ config, database, secretKey: randomBytes(32), logger: false, dashboardDir: '/nonexistent' });
  const close = async () => {
    await app.close();
    await database.shutdown();
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const user = await services.users.create({ email: 'bench@herald.test', password: 'bench-password', teamName: 'Bench' });
    const { token } = await services.tokens.issue(user.userId, 'personal', 'bench');
    const auth = adminAuthOf(user);
    return { dataDir, config, database, db: database.db, app, services, origin: `http://127.0.0.1:${port}`, port, user, token, auth, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The caller a benchmark's services act as: the admin the benchmark made, with a full-access token of
 * its team. Its changes are recorded in the audit trail as the action `bench` (a change made outside
 * a request must name its action).
 */
export function adminAuthOf(user: { userId: number; userUuid: string; teamId: number; teamUuid: string }): AuthContext {
  return {
    userId: user.userId,
    userUuid: user.userUuid,
    teamId: user.teamId,
    teamUuid: user.teamUuid,
    userEmail: 'bench@herald.test',
    teamName: 'Bench',
    tokenName: 'bench',
    role: 'admin',
    tokenId: 0,
    tokenKind: 'personal',
    scope: 'full',
    request: { operation: 'bench', ip: null, recorded: 0 },
  };
}
