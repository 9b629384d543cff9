import type { LoginRequest, PasswordChange, PasswordResetConfirm, PasswordResetRequest, ProfileInput } from '../../../shared/contract';
import type { Db } from '../../db/client';
import type { SharedRateLimiter } from '../../db/rate-counters';
import type { AuthContext } from '../../http/auth';
import { NotFoundError, TooManyRequestsError, UnauthenticatedError, ValidationError } from '../../lib/errors';
import type { Passwords } from '../../lib/passwords';
import { linkSecret, tokenDigest } from '../../lib/secrets';
import { normalizePhoneNumber } from '../../lib/phone-numbers';
import type { Clock } from '../../lib/time';
import type { AccountMailRepository } from '../account-mail/account-mail.repository';
import type { AuditRepository } from '../audit/audit.repository';
import type { AuditTrail } from '../audit/audit-trail';
import type { TokensRepository } from '../tokens/tokens.repository';
import type { TokensService } from '../tokens/tokens.service';
import type { UsersRepository } from '../users/users.repository';
import type { UsersService } from '../users/users.service';
import type { LoginFailuresRepository } from './login-failures.repository';
import type { PasswordResetsRepository } from './password-resets.repository';

const RESET_MINUTES = 60;
/** Reset e-mails an address is sent an hour at most, however often it is asked. */
const RESETS_AN_HOUR = 3;
const INVALID_RESET = 'This password reset link is not valid: it was used, or it has expired. Ask for a new one.';

export function createAuthService(deps: {
  db: Db;
  passwords: Passwords;
  users: Pick<UsersRepository, 'findByEmail' | 'findById' | 'setName' | 'setPhoneNumber' | 'setPasswordHash'>;
  usersService: Pick<UsersService, 'current'>;
  tokens: Pick<TokensService, 'issue' | 'authenticate' | 'revokeCurrent'>;
  tokensRepository: Pick<TokensRepository, 'revokeSessions' | 'revokePersonalTokens'>;
  resets: PasswordResetsRepository;
  loginFailures: LoginFailuresRepository;
  outbox: Pick<AccountMailRepository, 'enqueue'>;
  limiter: SharedRateLimiter;
  /** Sign-ins and password resets (of someone not signed in), recorded as such. */
  audit: Pick<AuditRepository, 'record'>;
  /** What a signed-in user changes of their own account, recorded in its transaction. */
  trail: AuditTrail;
  clock: Clock;
  config: { loginRateLimitPerMinute: number; publicUrl: string; defaultCountry: string };
  /** Forgets who tokens are: sessions were signed out. */
  forgetTokenOwners: () => void;
  /** Where a reset e-mail that could not be queued is reported (the request was already answered). */
  log: (error: unknown) => void;
}) {
  /**
   * Sign-in attempts are throttled per e-mail address and client address together, with a wait that
   * grows with each failure: guesses from one place slow down, while the owner of the address, signing
   * in from elsewhere, is never locked out by them.
   */
  const limitAttempts = async (email: string, ip: string | null) => {
    const verdict = await deps.loginFailures.attempt(deps.db, email.trim().toLowerCase(), ip ?? '', deps.config.loginRateLimitPerMinute);
    if (!verdict.allowed) throw new TooManyRequestsError(verdict.retryAfterSeconds, 'Too many sign-in attempts. Try again later.');
  };

  const pendingResets = new Set<Promise<void>>();

  /** A single-use link valid an hour, e-mailed when the address has an account (at most RESETS_AN_HOUR an hour). */
  async function sendReset(email: string): Promise<void> {
    const user = await deps.users.findByEmail(email);
    if (!user) return;
    const secret = linkSecret();
    await deps.db.transaction(async (tx) => {
      if ((await deps.resets.recentCount(tx, user.id)) >= RESETS_AN_HOUR) return;
      await deps.resets.insert(tx, {
        userId: user.id,
        tokenHash: tokenDigest(secret),
        expiresAt: new Date(deps.clock.now().getTime() + RESET_MINUTES * 60_000),
      });
      await deps.outbox.enqueue(tx, [
        {
          to: user.email,
          subject: 'Reset your Herald password',
          body: [
            `Someone (we hope you) asked to reset the password of ${user.email} on Herald.`,
            '',
            `Open this link within ${RESET_MINUTES} minutes to choose a new password (it works once):`,
            `${deps.config.publicUrl}/reset-password#${secret}`,
            '',
            'If you did not ask for this, ignore this e-mail: your password stays as it is.',
          ].join('\n'),
        },
      ]);
    });
  }

  return {
    /**
     * Password sign-in: a session token valid 30 days. Attempts are limited per address, across every
     * process. Each attempt is in the audit log: a failed one in the team the address works in.
     */
    async login(input: LoginRequest, ip: string | null) {
      await limitAttempts(input.email, ip);
      const user = await deps.users.findByEmail(input.email);
      // Verify against a decoy when the user is unknown, so timing does not tell which addresses exist.
      const valid = await deps.passwords.verify(input.password, user?.passwordHash ?? (await deps.passwords.decoyHash()));
      if (!user || !valid) {
        await deps.audit.record({
          teamId: user?.currentTeamId ?? null,
          actor: { kind: 'anonymous', uuid: null, name: input.email.trim().slice(0, 254) },
          action: 'loginFailed',
          resourceType: 'session',
          resourceUuid: null,
          changes: null,
          ip,
        });
        throw new UnauthenticatedError('These credentials do not match our records.');
      }
      await deps.loginFailures.cleared(deps.db, input.email.trim().toLowerCase(), ip ?? '');
      // A hash made with older, cheaper parameters is replaced now that the password is known.
      if (deps.passwords.needsRehash(user.passwordHash)) await deps.users.setPasswordHash(deps.db, user.id, await deps.passwords.hash(input.password));
      const { token } = await deps.tokens.issue(user.id, 'session', 'Dashboard sign-in');
      const auth = await deps.tokens.authenticate(token);
      if (!auth) throw new UnauthenticatedError('You are not a member of any team. Ask an admin of a team to invite you.');
      await deps.audit.record({
        teamId: auth.teamId,
        actor: { kind: 'user', uuid: user.uuid, name: user.name },
        action: 'login',
        resourceType: 'session',
        resourceUuid: null,
        changes: null,
        ip,
      });
      return { token, auth, user: await deps.usersService.current(auth) };
    },

    logout: (auth: AuthContext) => deps.tokens.revokeCurrent(auth),

    async updateProfile(auth: AuthContext, input: ProfileInput) {
      let phoneNumber: string | null | undefined;
      if (input.phone_number !== undefined) {
        const text = input.phone_number.trim();
        if (text === '') phoneNumber = null;
        else {
          const phone = normalizePhoneNumber(text, deps.config.defaultCountry);
          if (!phone.ok) throw ValidationError.field('phone_number', `The phone number ${phone.reason}.`);
          phoneNumber = phone.number;
        }
      }
      return deps.db.transaction(async (tx) => {
        const before = await deps.usersService.current(auth, tx);
        if (phoneNumber !== undefined) await deps.users.setPhoneNumber(auth.userId, phoneNumber, tx);
        await deps.users.setName(auth.userId, input.name, tx);
        const after = await deps.usersService.current(auth, tx);
        await deps.trail.record(tx, auth, { resourceType: 'user', resourceUuid: after.uuid, before, after });
        return after;
      });
    },

    /** A new password, given the current one; every other session of the user is signed out; API tokens too when asked (`revoke_api_tokens`). */
    async changePassword(auth: AuthContext, input: PasswordChange): Promise<void> {
      const user = await deps.users.findById(auth.userId);
      if (!user) throw new NotFoundError();
      if (!(await deps.passwords.verify(input.current_password, user.passwordHash)))
        throw ValidationError.field('current_password', 'The current password is not correct.');
      const hash = await deps.passwords.hash(input.new_password);
      await deps.db.transaction(async (tx) => {
        await deps.users.setPasswordHash(tx, auth.userId, hash);
        await deps.tokensRepository.revokeSessions(tx, auth.userId, auth.tokenKind === 'session' ? auth.tokenId : null);
        if (input.revoke_api_tokens === true) await deps.tokensRepository.revokePersonalTokens(tx, auth.userId);
        await deps.resets.useAll(tx, auth.userId);
        // The password itself is never logged: the event says that it changed.
        await deps.trail.record(tx, auth, { resourceType: 'user', resourceUuid: null, created: false });
      });
      deps.forgetTokenOwners();
    },

    /**
     * "Forgot password": e-mails a single-use link valid an hour when the address has an account, and
     * answers the same either way, so the answer tells nothing about which addresses exist.
     */
    async requestReset(input: PasswordResetRequest): Promise<void> {
      const verdict = await deps.limiter.hit([{ key: `reset:${input.email.trim().toLowerCase()}`, max: deps.config.loginRateLimitPerMinute }]);
      if (!verdict.allowed) throw new TooManyRequestsError(verdict.retryAfterSeconds, 'Too many reset requests. Try again later.');
      // The answer leaves before the address is even looked up, so its timing cannot tell whether it exists.
      const work = sendReset(input.email.trim()).catch((error) => deps.log(error));
      pendingResets.add(work);
      void work.finally(() => pendingResets.delete(work));
    },

    /** Resolves once the reset e-mails asked for so far are queued (for a clean stop, and tests). */
    settled: () => Promise.all([...pendingResets]).then(() => undefined),

    /** Sets the new password with a reset link; the link, and every session of the user, stop working. */
    async confirmReset(input: PasswordResetConfirm, ip: string | null): Promise<void> {
      const hash = await deps.passwords.hash(input.password);
      await deps.db.transaction(async (tx) => {
        const reset = await deps.resets.find(tx, tokenDigest(input.token));
        if (!reset || reset.usedAt !== null || reset.expiresAt.getTime() <= deps.clock.now().getTime()) throw new NotFoundError(INVALID_RESET);
        await deps.users.setPasswordHash(tx, reset.userId, hash);
        await deps.resets.useAll(tx, reset.userId);
        await deps.tokensRepository.revokeSessions(tx, reset.userId, null);
        // Whoever knew the old password may have made a token with it: gone too, unless the request keeps them.
        if (input.revoke_api_tokens !== false) await deps.tokensRepository.revokePersonalTokens(tx, reset.userId);
        const user = await deps.users.findById(reset.userId, tx);
        await deps.audit.record(
          {
            teamId: user?.currentTeamId ?? null,
            actor: { kind: 'user', uuid: user?.uuid ?? null, name: user?.name ?? '' },
            action: 'confirmPasswordReset',
            resourceType: 'user',
            resourceUuid: user?.uuid ?? null,
            changes: null,
            ip,
          },
          tx,
        );
      });
      deps.forgetTokenOwners();
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
