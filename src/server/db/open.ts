import type { Config } from '../config';
import { connectDatabase, type Database } from './client';
import { startEmbeddedPostgres } from './embedded';
import { migrate, type AppliedMigration } from './migrate';
import { checkRestoreFinished } from './restore-marker';

export type OpenedDatabase = Database & {
  embedded: boolean;
  /** The migrations this opening applied (an upgrade), for the log. */
  migrated: AppliedMigration[];
  shutdown(): Promise<void>;
};

/**
 * The database the process works on: DATABASE_URL when set, else the embedded server in
 * DATA_DIR (started, or adopted after a crash). Migrations are applied before it is returned; a
 * database newer than this code is refused (migrate.ts).
 */
export async function openDatabase(config: Config, options: { borrow?: boolean; warn?: (message: string) => void } = {}): Promise<OpenedDatabase> {
  await checkRestoreFinished(config.dataDir);
  const server = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir, options);
  const database = connectDatabase(config.databaseUrl ?? server!.url, { warn: options.warn });
  let migrated: AppliedMigration[];
  try {
    migrated = await migrate(database.pool);
  } catch (error) {
    await database.close();
    await server?.stop();
    throw error;
  }
  return {
    ...database,
    embedded: server !== undefined,
    migrated,
    async shutdown() {
      await database.close();
      await server?.stop();
    },
  };
}
