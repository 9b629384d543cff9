import type { Config } from '../config';
import { connectDatabase, type Database } from './client';
import { startEmbeddedPostgres } from './embedded';
import { migrate, type AppliedMigration } from './migrate';
import { checkRestoreFinished } from './restore-marker';
import { APP_ROLE, appRolePassword, currentRole, ensureAppRole, grantAppRole } from './roles';

export type OpenedDatabase = Database & {
  embedded: boolean;
  /** The migrations this opening applied (an upgrade), for the log. */
  migrated: AppliedMigration[];
  shutdown(): Promise<void>;
};

/** `url` logging in as another user. */
function asUser(url: string, user: string, password: string): string {
  const parsed = new URL(url);
  parsed.username = encodeURIComponent(user);
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

/**
 * The database the process works on: DATABASE_URL when set, else the embedded server in
 * DATA_DIR (started, or adopted after a crash). Migrations are applied before it is returned; a
 * database newer than this code is refused (migrate.ts).
 *
 * Two roles: the owner runs the migrations (and backups, restores); the returned pool logs in as
 * the application role, which cannot change or delete audit events (roles.ts). Embedded: the
 * superuser `postgres` is the owner and `herald_app` the application role, created (or brought up
 * to date, for data folders of older releases) here. External: DATABASE_MIGRATION_URL is the owner
 * and DATABASE_URL the application role; without DATABASE_MIGRATION_URL, DATABASE_URL is both.
 */
export async function openDatabase(config: Config, options: { borrow?: boolean; warn?: (message: string) => void } = {}): Promise<OpenedDatabase> {
  await checkRestoreFinished(config.dataDir);
  const server = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir, options);
  let ownerUrl: string;
  let appUrl: string;
  if (server) {
    ownerUrl = server.url;
    appUrl = asUser(server.url, APP_ROLE, appRolePassword(server.password));
  } else {
    appUrl = config.databaseUrl!;
    ownerUrl = config.databaseMigrationUrl ?? appUrl;
  }
  let migrated: AppliedMigration[];
  let database: Database | undefined;
  try {
    if (ownerUrl === appUrl) {
      database = connectDatabase(appUrl, { warn: options.warn });
      migrated = await migrate(database.pool);
    } else {
      const owner = connectDatabase(ownerUrl, { max: 1, warn: options.warn });
      try {
        migrated = await migrate(owner.pool);
        if (server) await ensureAppRole(owner.pool, APP_ROLE, appRolePassword(server.password));
        database = connectDatabase(appUrl, { warn: options.warn });
        const role = server ? APP_ROLE : await currentRole(database.pool);
        if (role !== (await currentRole(owner.pool))) await grantAppRole(owner.pool, role);
      } finally {
        await owner.close();
      }
    }
  } catch (error) {
    await database?.close();
    await server?.stop();
    throw error;
  }
  const opened = database;
  return {
    ...opened,
    embedded: server !== undefined,
    migrated,
    async shutdown() {
      await opened.close();
      await server?.stop();
    },
  };
}
