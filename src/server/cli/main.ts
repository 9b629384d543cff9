/**
 * Admin commands: `npm run --silent cli -- <command> [--flag value…]`.
 * Each prints exactly one JSON object on stdout (messages go to stderr) and works with the
 * service's environment, whether the service is running or not.
 */
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../config';
import { backup } from '../db/backup';
import type { Database } from '../db/client';
import { openDatabase } from '../db/open';
import { restore } from '../db/restore';
import { ValidationError } from '../lib/errors';
import { loadSecretKey } from '../lib/secret-box';
import { createServices, type Services } from '../services';
import { seedDemo } from './demo-seed';
import { ROLES, type Role } from '../../shared/contract';

type Flags = Record<string, string | undefined>;
type Command = { usage: string; run(services: Services, flags: Flags, context: { database: Database; config: Config }): Promise<Record<string, unknown>> };
/** A command on the database as a whole (backup, restore): it opens (and does not migrate) the database itself. */
type DataCommand = { usage: string; run(config: Config, flags: Flags, positionals: string[]): Promise<Record<string, unknown>> };

function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (!value) throw new UsageError(`--${name} is required.`);
  return value;
}

function role(flags: Flags): Role {
  const value = flags.role ?? 'admin';
  if (!(ROLES as readonly string[]).includes(value)) throw new UsageError('--role must be admin, editor or viewer.');
  return value as Role;
}

class UsageError extends Error {}

const commands: Record<string, Command> = {
  'user:create': {
    usage: 'user:create --email E --password P --team NAME [--name N] [--role admin|editor|viewer]',
    async run(services, flags) {
      const user = await services.users.create({
        email: required(flags, 'email'),
        password: required(flags, 'password'),
        teamName: required(flags, 'team'),
        name: flags.name,
        role: role(flags),
      });
      const { token } = await services.tokens.issue(user.userId, 'personal', 'CLI');
      return { user_uuid: user.userUuid, team_uuid: user.teamUuid, token };
    },
  },
  'team:create': {
    usage: 'team:create --name NAME',
    async run(services, flags) {
      const team = await services.teams.create(required(flags, 'name'));
      return { team_uuid: team.uuid, name: team.name };
    },
  },
  'user:add-to-team': {
    usage: 'user:add-to-team --email E --team NAME [--role admin|editor|viewer]',
    async run(services, flags) {
      const { userUuid, teamUuid } = await services.users.addToTeam(required(flags, 'email'), required(flags, 'team'), role(flags));
      return { user_uuid: userUuid, team_uuid: teamUuid };
    },
  },
  'token:create': {
    usage: 'token:create --email E [--name N]',
    async run(services, flags) {
      const user = await services.usersRepository.findByEmail(required(flags, 'email'));
      if (!user) throw ValidationError.field('email', 'No user has this email.');
      const { token, row } = await services.tokens.issue(user.id, 'personal', flags.name ?? 'CLI');
      return { token_uuid: row.uuid, token };
    },
  },
  'demo:seed': {
    usage: 'demo:seed [--email E --password P --team NAME]   (default demo@herald.test, demo-password-1, Demo Shop)',
    run: (services, flags, { database, config }) =>
      seedDemo({ services, db: database.db, config }, { email: flags.email, password: flags.password, team: flags.team }),
  },
};

const dataCommands: Record<string, DataCommand> = {
  backup: {
    usage: 'backup --out FILE   (the database, online, and the secret key; see README, Backup and restore)',
    run: (config, flags) => backup(config, required(flags, 'out')),
  },
  restore: {
    usage: 'restore FILE   (into an empty DATA_DIR, or the empty database of DATABASE_URL)',
    async run(config, _flags, positionals) {
      if (positionals.length !== 1) throw new UsageError('restore takes one backup file.');
      return restore(config, positionals[0]!);
    },
  },
};

function help(): string {
  return ['Usage: npm run --silent cli -- <command>', ...[...Object.values(commands), ...Object.values(dataCommands)].map((c) => `  ${c.usage}`)].join('\n');
}

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  const command = name ? commands[name] : undefined;
  const dataCommand = name ? dataCommands[name] : undefined;
  if (!command && !dataCommand) {
    process.stderr.write(`${name ? `Unknown command ${name}.\n` : ''}${help()}\n`);
    return 2;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      team: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
    allowPositionals: dataCommand !== undefined,
  });
  const config = { ...loadConfig(), logLevel: 'silent' as const };
  if (dataCommand) {
    process.stdout.write(JSON.stringify(await dataCommand.run(config, values, positionals)) + '\n');
    return 0;
  }
  const database = await openDatabase(config, { borrow: true });
  for (const { name: migration, ms } of database.migrated) process.stderr.write(`database: applied migration ${migration} (${ms} ms)\n`);
  try {
    const result = await command!.run(createServices(database, config, { secretKey: await loadSecretKey(config) }), values, { database, config });
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } finally {
    await database.shutdown();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ValidationError) {
      process.stderr.write(Object.values(error.fields).flat().join('\n') + '\n');
    } else if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(error as Error).message}\n${help()}\n`);
    } else {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exit(1);
  },
);
