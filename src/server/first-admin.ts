import type { Config } from './config';
import { ValidationError } from './lib/errors';
import { generatePassword } from './lib/passwords';
import type { Services } from './services';

/** On an empty database: the first team and admin, printed once (or taken from HERALD_ADMIN_EMAIL / _PASSWORD). */
export async function createFirstAdmin(services: Services, config: Config): Promise<void> {
  if ((await services.usersRepository.count()) > 0) return;
  const email = config.adminEmail ?? 'admin@herald.local';
  const password = config.adminPassword ?? generatePassword();
  try {
    await services.users.create({ email, password, name: 'Admin', teamName: 'Herald' });
  } catch (error) {
    if (error instanceof ValidationError && error.fields.email) return; // another process made it first
    throw error;
  }
  const lines = [
    '',
    'Herald made the first user. Sign in at ' + config.publicUrl,
    `  e-mail:   ${email}`,
    config.adminPassword ? '  password: (the one in HERALD_ADMIN_PASSWORD)' : `  password: ${password}`,
    config.adminPassword ? '' : '  This password is shown once. Keep it somewhere safe.',
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
