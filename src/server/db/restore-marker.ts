import fs from 'node:fs/promises';
import path from 'node:path';

/** Left in DATA_DIR while a restore runs; removed when it has succeeded or been undone. */
export const RESTORE_MARKER = 'RESTORE-INCOMPLETE';

/** Refuses a data folder a restore left unfinished (killed mid-way): its database is not to be used. */
export async function checkRestoreFinished(dataDir: string): Promise<void> {
  const note = await fs.readFile(path.join(dataDir, RESTORE_MARKER), 'utf8').catch(() => undefined);
  if (note !== undefined) throw new Error(`A restore into ${dataDir} did not finish (${path.join(dataDir, RESTORE_MARKER)} is there). ${note.trim()}`);
}
