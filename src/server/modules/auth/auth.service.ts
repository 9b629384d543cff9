import type { LoginRequest } from '../../../shared/contract';
import type { AuthContext } from '../../http/auth';
import { TooManyRequestsError, UnauthenticatedError } from '../../lib/errors';
import { DECOY_PASSWORD_HASH, verifyPassword } from '../../lib/passwords';
import { RateLimiter } from '../../lib/rate-limiter';
import type { TokensService } from '../tokens/tokens.service';
import type { UsersRepository } from '../users/users.repository';
import type { UsersService } from '../users/users.service';

export function createAuthService(deps: {
  users: Pick<UsersRepository, 'findByEmail'>;
  usersService: Pick<UsersService, 'current'>;
  tokens: Pick<TokensService, 'issue' | 'authenticate' | 'revokeCurrent'>;
  config: { loginRateLimitPerMinute: number };
}) {
  const attempts = new RateLimiter();
  return {
    /** Password sign-in for the dashboard: a session token valid 30 days. Attempts are limited per address. */
    async login(input: LoginRequest) {
      const verdict = attempts.hit(input.email.toLowerCase(), deps.config.loginRateLimitPerMinute);
      if (!verdict.allowed) throw new TooManyRequestsError(verdict.retryAfterSeconds, 'Too many sign-in attempts. Try again later.');
      const user = await deps.users.findByEmail(input.email);
      // Verify against a decoy when the user is unknown, so timing does not tell which addresses exist.
      const valid = await verifyPassword(input.password, user?.passwordHash ?? DECOY_PASSWORD_HASH);
      if (!user || !valid) throw new UnauthenticatedError('These credentials do not match our records.');
      const { token } = await deps.tokens.issue(user.id, 'session', 'Dashboard sign-in');
      const auth = await deps.tokens.authenticate(token);
      if (!auth) throw new UnauthenticatedError();
      return { token, user: await deps.usersService.current(auth) };
    },

    logout: (auth: AuthContext) => deps.tokens.revokeCurrent(auth),
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
