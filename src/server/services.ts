import type { Config } from './config';
import type { Database } from './db/client';
import { createAuthService } from './modules/auth/auth.service';
import { createSendersRepository } from './modules/senders/senders.repository';
import { createSendersService } from './modules/senders/senders.service';
import { createTeamsRepository } from './modules/teams/teams.repository';
import { createTeamsService } from './modules/teams/teams.service';
import { createTokensRepository } from './modules/tokens/tokens.repository';
import { createTokensService } from './modules/tokens/tokens.service';
import { createUsersRepository } from './modules/users/users.repository';
import { createUsersService } from './modules/users/users.service';

/** The composition root: every repository and service, wired once for the HTTP app, the CLI and tests. */
export function createServices(database: Database, config: Config) {
  const { db } = database;
  const teamsRepository = createTeamsRepository(db);
  const usersRepository = createUsersRepository(db);
  const tokensRepository = createTokensRepository(db);

  const teams = createTeamsService({ db, teams: teamsRepository });
  const users = createUsersService({ db, users: usersRepository, teams: teamsRepository, teamsService: teams, config });
  const tokens = createTokensService({ tokens: tokensRepository, users: usersRepository, teams: teamsRepository, config });
  const auth = createAuthService({ users: usersRepository, usersService: users, tokens, config });
  const senders = createSendersService({ senders: createSendersRepository(db), config });

  return { teams, users, tokens, auth, senders, usersRepository };
}
export type Services = ReturnType<typeof createServices>;
