import { createHash, randomBytes } from 'node:crypto';
import { TOKEN_PREFIX } from '../../shared/contract';

/** A bearer token: recognisable prefix + 256 random bits. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** The secret of an e-mailed link (an invitation, a password reset): 256 random bits, no prefix; only its digest is stored. */
export function linkSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored and looked up only by this digest; the token itself is never kept. */
export function tokenDigest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export function tokenHint(token: string): string {
  return `${token.slice(0, TOKEN_PREFIX.length + 4)}…`;
}
