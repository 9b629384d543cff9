/** What a Herald process does (`--role`): serve HTTP, send (engine and report worker), or both. */
export type Role = 'api' | 'worker' | 'all';

/** The role named on the command line; `all` when none is. */
export function roleFromArgs(argv: string[]): Role {
  const index = argv.indexOf('--role');
  const role = index >= 0 ? argv[index + 1] : 'all';
  if (role !== 'api' && role !== 'worker' && role !== 'all') throw new Error(`--role must be api, worker or all (got ${role}).`);
  return role;
}

/** Whether a process of this role listens for HTTP. */
export const servesHttp = (role: Role): boolean => role !== 'worker';

/** Whether a process of this role runs the engine, its SMS gateway and the report worker. */
export const sends = (role: Role): boolean => role !== 'api';
