import type { ApiToken, ApiTokenInput } from '../../../shared/contract';
import type { AuthContext } from '../../http/auth';
import { ForbiddenError, NotFoundError } from '../../lib/errors';
import { generateToken, tokenDigest, tokenHint } from '../../lib/secrets';
import { formatTimestamp, type Clock } from '../../lib/time';
import type { TokenKind, TokenRow, TokensRepository } from './tokens.repository';
import type { UsersRepository } from '../users/users.repository';
import type { TeamsRepository } from '../teams/teams.repository';
import type { OwnerCache } from './owner-cache';

const SESSION_DAYS = 30;

export function createTokensService(deps: {
  tokens: TokensRepository;
  users: Pick<UsersRepository, 'setCurrentTeam'>;
  teams: Pick<TeamsRepository, 'teamsOf'>;
  config: { appTimezone: string };
  /** Who tokens are, remembered between requests (see owner-cache.ts). */
  owners: OwnerCache;
  clock: Clock;
}) {
  const TOUCH_EVERY_MS = 60_000;
  const present = (row: TokenRow): ApiToken => ({
    uuid: row.uuid,
    name: row.name,
    hint: row.hint,
    last_used_at: formatTimestamp(row.lastUsedAt, deps.config.appTimezone),
    created_at: formatTimestamp(row.createdAt, deps.config.appTimezone),
  });

  return {
    /** Makes a token and returns it in clear this once; only its digest is stored. */
    async issue(userId: number, kind: TokenKind, name: string): Promise<{ token: string; row: TokenRow }> {
      const token = generateToken();
      const expiresAt = kind === 'session' ? new Date(deps.clock.now().getTime() + SESSION_DAYS * 86_400_000) : null;
      const row = await deps.tokens.insert({ userId, kind, name, tokenHash: tokenDigest(token), hint: tokenHint(token), expiresAt });
      return { token, row };
    },

    async authenticate(token: string): Promise<AuthContext | null> {
      const digest = tokenDigest(token);
      const key = digest.toString('base64');
      const cached = deps.owners.get(key);
      if (cached) {
        const now = deps.clock.now().getTime();
        if (now - cached.touchedAt >= TOUCH_EVERY_MS) {
          cached.touchedAt = now;
          await deps.tokens.touch(cached.auth.tokenId);
        }
        return cached.auth;
      }
      const generation = deps.owners.generation();
      const owner = await deps.tokens.findOwner(digest);
      if (!owner) return null;
      let { teamId, teamUuid } = owner;
      if (teamId === null || teamUuid === null) {
        // The user's current team is gone (or they left it): fall back to a team they are in.
        const [first] = await deps.teams.teamsOf(owner.userId);
        if (!first) throw new ForbiddenError('You are not a member of any team.');
        await deps.users.setCurrentTeam(owner.userId, first.id);
        deps.owners.forget();
        ({ id: teamId, uuid: teamUuid } = first);
      }
      await deps.tokens.touch(owner.tokenId);
      const auth = { tokenId: owner.tokenId, userId: owner.userId, userUuid: owner.userUuid, teamId, teamUuid };
      deps.owners.set(key, auth, owner.expiresAtMs, generation);
      return auth;
    },

    async create(auth: AuthContext, input: ApiTokenInput) {
      const { token, row } = await this.issue(auth.userId, 'personal', input.name);
      return { ...present(row), token };
    },

    async list(auth: AuthContext, window: { limit: number; offset: number }) {
      const { rows, total } = await deps.tokens.listPersonal(auth.userId, window);
      return { items: rows.map(present), total };
    },

    async revoke(auth: AuthContext, uuid: string): Promise<void> {
      const revoked = await deps.tokens.revokePersonal(auth.userId, uuid);
      deps.owners.forget();
      if (!revoked) throw new NotFoundError();
    },

    async revokeCurrent(auth: AuthContext): Promise<void> {
      await deps.tokens.revokeById(auth.tokenId);
      deps.owners.forget();
    },
  };
}
export type TokensService = ReturnType<typeof createTokensService>;
