import type { Config } from '../config';
import { connectDatabase, type Database } from './client';
import { startEmbeddedPostgres } from './embedded';
import { migrate } from './migrate';

export type OpenedDatabase = Database & { embedded: boolean; shutdown(): Promise<void> };

/**
 * The database the process works on: DATABASE_URL when set, else the embedded server in
 * DATA_DIR (started, or adopted after a crash). Migrations are applied before it is returned.
 */
export async function openDatabase(config: Config, options: { borrow?: boolean } = {}): Promise<OpenedDatabase> {
  const server = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir, options);
  const database = connectDatabase(config.databaseUrl ?? server!.url);
  try {
    await migrate(database.pool);
  } catch (error) {
    await database.close();
    await server?.stop();
    throw error;
  }
  return {
    ...database,
    embedded: server !== undefined,
    async shutdown() {
      await database.close();
      await server?.stop();
    },
  };
}
