import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export type ScryptCost = { N: number; r: number; p: number };

/**
 * scrypt N=2^17, r=8, p=1: OWASP's current recommendation for passwords (128 MiB and a fraction of a
 * second a hash). Production always uses it; only the test app (src/server/testing/test-app.ts) may pass a
 * cheaper cost to createPasswords, so that tests which make many users stay quick.
 */
export const PASSWORD_COST: ScryptCost = { N: 131_072, r: 8, p: 1 };
const KEY_LENGTH = 64;
// scrypt needs 128 × N × r bytes; Node refuses above maxmem.
const MAX_MEMORY = 256 * 1024 * 1024;

function derive(password: string, salt: Buffer, { N, r, p }: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r, p, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Password hashes, `scrypt$N$r$p$salt$key` (salt and key in base64), made at `cost`. */
export function createPasswords(cost: ScryptCost = PASSWORD_COST) {
  const prefix = `scrypt$${cost.N}$${cost.r}$${cost.p}$`;
  const hash = async (password: string): Promise<string> => {
    const salt = randomBytes(16);
    const key = await derive(password, salt, cost);
    return `${prefix}${salt.toString('base64')}$${key.toString('base64')}`;
  };
  let decoy: Promise<string> | undefined;
  return {
    hash,

    /** Checks a password against a stored hash, whatever cost it was made with. */
    async verify(password: string, stored: string): Promise<boolean> {
      const [scheme, n, r, p, salt, key] = stored.split('$');
      if (scheme !== 'scrypt' || !salt || !key) return false;
      const expected = Buffer.from(key, 'base64');
      const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },

    /** A stored hash made at another cost than today's: it is hashed again once the password is known (at sign-in). */
    needsRehash: (stored: string): boolean => !stored.startsWith(prefix),

    /**
     * A hash of a random password: verifying against it costs what a real check costs, so a missing
     * user is not faster. Made on first use, not at start.
     */
    decoyHash(): Promise<string> {
      decoy ??= hash(randomBytes(16).toString('hex'));
      return decoy;
    },
  };
}
export type Passwords = ReturnType<typeof createPasswords>;

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
