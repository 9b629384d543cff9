import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import { generatePassword } from './lib/passwords';
import type { Services } from './services';

/** The file, in DATA_DIR, that holds a generated first password (readable by its owner only). */
export const INITIAL_ADMIN_FILE = 'initial-admin.txt';

/**
 * On an empty database: the first team and admin (HERALD_ADMIN_EMAIL / _PASSWORD, or a generated
 * password). A generated password is written once to DATA_DIR/initial-admin.txt, mode 0600, and
 * only that file's path is logged: output ends up in journald or a container's log, which others
 * may read. Several processes starting at once on one empty database make one admin between them:
 * the ones that lose the race (a unique key taken: the team's name or the e-mail) find the admin
 * made and carry on.
 */
export async function createFirstAdmin(services: Services, config: Config, log: Pick<FastifyBaseLogger, 'warn'>): Promise<void> {
  if ((await services.usersRepository.count()) > 0) return;
  const email = config.adminEmail ?? 'admin@herald.local';
  const password = config.adminPassword ?? generatePassword();
  try {
    await services.users.create({ email, password, name: 'Admin', teamName: 'Herald' });
  } catch (error) {
    // Lost the race: the winner's transaction committed before this one failed on its keys.
    if ((await services.usersRepository.count()) > 0) return;
    throw error;
  }
  let where = 'with the password in HERALD_ADMIN_PASSWORD';
  if (!config.adminPassword) {
    const file = path.join(config.dataDir, INITIAL_ADMIN_FILE);
    await fs.mkdir(config.dataDir, { recursive: true });
    const text = [
      `Herald's first user, made ${new Date().toISOString()}.`,
      `Sign in at ${config.publicUrl}`,
      `e-mail:   ${email}`,
      `password: ${password}`,
      '',
      'Change the password after signing in (your profile), then delete this file.',
      '',
    ].join('\n');
    // Created with its mode, never widened after the fact; an old file (a reset database) is replaced.
    await fs.rm(file, { force: true });
    await fs.writeFile(file, text, { mode: 0o600, flag: 'wx' });
    where = `password: in ${file} (readable only by the user Herald runs as)`;
  }
  // A warning: the one line of a first start someone must act on.
  log.warn({ email }, `Herald made the first user: sign in at ${config.publicUrl} as ${email}, ${where}.`);
}
