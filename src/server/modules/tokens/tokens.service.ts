import type { ApiToken, ApiTokenInput } from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { Conn } from '../../db/rows';
import type { AuthContext } from '../../http/auth';
import type { PageWindow } from '../../db/pages';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors';
import { generateToken, tokenDigest, tokenHint } from '../../lib/secrets';
import { formatTimestamp, parseTimestamp, type Clock } from '../../lib/time';
import type { ListedToken, TokenKind, TokenRow, TokenScope, TokensRepository } from './tokens.repository';
import type { UsersRepository } from '../users/users.repository';
import type { TeamsRepository } from '../teams/teams.repository';
import type { AuditTrail } from '../audit/audit-trail';
import type { OwnerCache } from './owner-cache';

const SESSION_DAYS = 30;

export function createTokensService(deps: {
  db: Db;
  audit: AuditTrail;
  tokens: TokensRepository;
  users: Pick<UsersRepository, 'findById'>;
  teams: Pick<TeamsRepository, 'teamsOf'>;
  config: { appTimezone: string };
  /** Who tokens are, remembered between requests (see owner-cache.ts). */
  owners: OwnerCache;
  clock: Clock;
}) {
  const TOUCH_EVERY_MS = 60_000;
  const zone = deps.config.appTimezone;
  const present = (token: ListedToken): ApiToken => ({
    uuid: token.uuid,
    name: token.name,
    hint: token.hint,
    team_uuid: token.teamUuid,
    scope: token.scope,
    expires_at: formatTimestamp(token.expiresAt, zone),
    last_used_at: formatTimestamp(token.lastUsedAt, zone),
    created_at: formatTimestamp(token.createdAt, zone),
  });

  /** The team a token made without one acts in: the user's current team if they are still in it, else their first. */
  const defaultTeamOf = async (userId: number): Promise<{ id: number; uuid: string }> => {
    const [user, teams] = await Promise.all([deps.users.findById(userId), deps.teams.teamsOf(userId)]);
    const team = teams.find((candidate) => candidate.id === user?.currentTeamId) ?? teams[0];
    if (!team) throw new ForbiddenError('You are not a member of any team.');
    return team;
  };

  return {
    /**
     * Makes a token and returns it in clear this once; only its digest is stored. It acts in `teamId`
     * (by default the user's current team) for good: a session moves only by its own switch-team.
     */
    async issue(
      userId: number,
      kind: TokenKind,
      name: string,
      options: { teamId?: number; scope?: TokenScope; expiresAt?: Date | null; conn?: Conn } = {},
    ): Promise<{ token: string; row: TokenRow }> {
      const token = generateToken();
      const teamId = options.teamId ?? (await defaultTeamOf(userId)).id;
      const expiresAt = kind === 'session' ? new Date(deps.clock.now().getTime() + SESSION_DAYS * 86_400_000) : (options.expiresAt ?? null);
      const row = await deps.tokens.insert(
        {
          userId,
          teamId,
          kind,
          scope: options.scope ?? 'full',
          name,
          tokenHash: tokenDigest(token),
          hint: tokenHint(token),
          expiresAt,
        },
        options.conn,
      );
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
      await deps.tokens.touch(owner.tokenId);
      const auth: AuthContext = {
        tokenId: owner.tokenId,
        tokenKind: owner.tokenKind,
        scope: owner.scope,
        userId: owner.userId,
        userUuid: owner.userUuid,
        userEmail: owner.userEmail,
        teamId: owner.teamId,
        teamUuid: owner.teamUuid,
        teamName: owner.teamName,
        tokenName: owner.tokenName,
        role: owner.role,
      };
      deps.owners.set(key, auth, owner.expiresAtMs, generation);
      return auth;
    },

    /** A personal token in the caller's team, read-only or not, expiring or not. */
    async create(auth: AuthContext, input: ApiTokenInput) {
      let expiresAt: Date | null = null;
      if (input.expires_at) {
        expiresAt = parseTimestamp(input.expires_at, zone);
        if (!expiresAt) throw ValidationError.field('expires_at', 'The expires at is not a valid date.');
        if (expiresAt <= deps.clock.now()) throw ValidationError.field('expires_at', 'The expires at must be a date in the future.');
      }
      return deps.db.transaction(async (tx) => {
        const { token, row } = await this.issue(auth.userId, 'personal', input.name, { teamId: auth.teamId, scope: input.scope, expiresAt, conn: tx });
        const created = { ...present({ ...row, teamUuid: auth.teamUuid }), token };
        // The token itself is a secret: the audit trail leaves it out.
        await deps.audit.record(tx, auth, { resourceType: 'token', resourceUuid: created.uuid, after: created });
        return created;
      });
    },

    async list(auth: AuthContext, window: PageWindow) {
      const { rows, total } = await deps.tokens.listPersonal(auth.userId, window);
      return { items: rows.map(present), total };
    },

    /** Revokes one of the caller's tokens; its event names it (a token has no GET to show it before). */
    async revoke(auth: AuthContext, uuid: string): Promise<void> {
      try {
        await deps.db.transaction(async (tx) => {
          if (!(await deps.tokens.revokePersonal(auth.userId, uuid, tx))) throw new NotFoundError();
          await deps.audit.record(tx, auth, { resourceType: 'token', resourceUuid: uuid, created: false });
        });
      } finally {
        // After the commit: a request authenticated meanwhile must not cache the token as still valid.
        deps.owners.forget();
      }
    },

    /** Revokes the token the caller uses (signing out), recorded as the end of a session. */
    async revokeCurrent(auth: AuthContext): Promise<void> {
      try {
        await deps.db.transaction(async (tx) => {
          await deps.tokens.revokeById(auth.tokenId, tx);
          await deps.audit.record(tx, auth, { resourceType: 'session', resourceUuid: null, created: false });
        });
      } finally {
        deps.owners.forget();
      }
    },
  };
}
export type TokensService = ReturnType<typeof createTokensService>;
