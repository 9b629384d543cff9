import fs from 'node:fs/promises';
import path from 'node:path';

/** The data folder claimed by this process; `release` gives it up. */
export type DataDirLock = { release(): Promise<void> };

/**
 * Refuses a second Herald on the same data folder: both would drive one embedded database. The
 * claim is a pid file; a pid file left by a process that is gone (or is not Herald) is taken over.
 */
export async function claimDataDir(dataDir: string): Promise<DataDirLock> {
  const pidFile = path.join(dataDir, 'herald.pid');
  const pid = Number(await fs.readFile(pidFile, 'utf8').catch(() => ''));
  if (pid > 0 && pid !== process.pid) {
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('src/server/main.ts')) throw new Error(`Herald is already running with the data folder ${dataDir} (pid ${pid}).`);
  }
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(pidFile, String(process.pid));
  return { release: () => fs.rm(pidFile, { force: true }) };
}
