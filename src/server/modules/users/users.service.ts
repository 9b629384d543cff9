import { PASSWORD_MIN, type CurrentUser } from '../../../shared/contract';
import type { Db, Tx } from '../../db/client';
import { isUniqueViolation } from '../../db/client';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors';
import type { Passwords } from '../../lib/passwords';
import { formatTimestamp } from '../../lib/time';
import type { AuthContext } from '../../http/auth';
import type { Role, TeamsRepository } from '../teams/teams.repository';
import type { TeamsService } from '../teams/teams.service';
import type { UsersRepository } from './users.repository';
import type { TokensRepository } from '../tokens/tokens.repository';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export type NewUser = { email: string; password: string; name?: string; teamName: string; role?: Role };

export function createUsersService(deps: {
  db: Db;
  passwords: Pick<Passwords, 'hash'>;
  users: UsersRepository;
  teams: TeamsRepository;
  teamsService: Pick<TeamsService, 'findOrCreate'>;
  config: { appTimezone: string };
  tokens: Pick<TokensRepository, 'moveSession'>;
  /** Forgets who tokens are (their team changes with a switch). */
  forgetTokenOwners: () => void;
}) {
  const present = async (userId: number, currentTeamId: number, conn: Db | Tx = deps.db): Promise<CurrentUser> => {
    const user = await deps.users.findById(userId, conn);
    if (!user) throw new NotFoundError();
    const teams = await deps.teams.teamsOf(userId, conn);
    const current = teams.find((team) => team.id === currentTeamId);
    if (!current) throw new NotFoundError();
    const summary = ({ uuid, name, role }: { uuid: string; name: string; role: Role }) => ({ uuid, name, role });
    return {
      uuid: user.uuid,
      name: user.name,
      email: user.email,
      phone_number: user.phoneNumber,
      current_team: summary(current),
      teams: teams.map(summary),
      app_timezone: deps.config.appTimezone,
      created_at: formatTimestamp(user.createdAt, deps.config.appTimezone),
    };
  };

  return {
    /** Creates a user in a team (the team is created when it does not exist); used by the CLI and the first start. */
    async create(input: NewUser): Promise<{ userUuid: string; userId: number; teamUuid: string; teamId: number }> {
      const email = input.email.trim();
      if (!EMAIL.test(email) || email.length > 254) throw ValidationError.field('email', 'The email must be a valid email address.');
      if (input.password.length < PASSWORD_MIN) throw ValidationError.field('password', `The password must be at least ${PASSWORD_MIN} characters.`);
      const passwordHash = await deps.passwords.hash(input.password);
      try {
        return await deps.db.transaction(async (tx) => {
          const { team } = await deps.teamsService.findOrCreate(input.teamName, tx);
          const user = await deps.users.insert(tx, { email, name: input.name?.trim() || email.split('@')[0]!, passwordHash, currentTeamId: team.id });
          await deps.teams.addMember(tx, team.id, user.id, input.role ?? 'admin');
          return { userUuid: user.uuid, userId: user.id, teamUuid: team.uuid, teamId: team.id };
        });
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_key')) throw ValidationError.field('email', 'The email has already been taken.');
        throw error;
      }
    },

    /** The caller as GET /users/me shows them; read in `conn` for the before and after of a change. */
    current: (auth: AuthContext, conn?: Db | Tx) => present(auth.userId, auth.teamId, conn),

    /**
     * Switches the team of the session it is called with (GET /users/switch/team/{uuid}), and the team
     * the user's next sign-in starts in. Other sessions and API tokens keep theirs: an API token acts
     * in the team it was made in, so switching with one is refused. A team the user is not in is unknown.
     */
    async switchTeam(auth: AuthContext, teamUuid: string): Promise<CurrentUser> {
      const team = await deps.teams.findByUuid(teamUuid);
      if (!team || !(await deps.teams.isMember(auth.userId, team.id))) throw new NotFoundError('The requested team was not found.');
      if (auth.tokenKind !== 'session') throw new ForbiddenError('An API token acts in the team it was made in; make a token in the other team instead.');
      await deps.tokens.moveSession(auth.tokenId, team.id);
      await deps.users.setCurrentTeam(auth.userId, team.id);
      deps.forgetTokenOwners();
      return present(auth.userId, team.id);
    },

    async addToTeam(email: string, teamName: string, role: Role): Promise<{ userUuid: string; teamUuid: string }> {
      const user = await deps.users.findByEmail(email);
      if (!user) throw ValidationError.field('email', 'No user has this email.');
      const team = await deps.teams.findByName(teamName);
      if (!team) throw ValidationError.field('team', 'No team has this name.');
      await deps.teams.addMember(deps.db, team.id, user.id, role);
      return { userUuid: user.uuid, teamUuid: team.uuid };
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
