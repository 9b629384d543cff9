import { describe, expect, it } from 'vitest';
import { createPasswords, PASSWORD_COST } from './passwords';

describe('passwords', () => {
  it("are stored as salted scrypt hashes at OWASP's cost (N=2^17, r=8, p=1) that verify only the right password", async () => {
    const { hash: hashPassword, verify: verifyPassword, needsRehash } = createPasswords();
    expect(PASSWORD_COST).toEqual({ N: 131_072, r: 8, p: 1 });
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(needsRehash(hash)).toBe(false);
    expect(needsRehash('scrypt$32768$8$1$c2FsdA==$a2V5')).toBe(true);
    expect(hash).not.toContain('correct');
    expect(await hashPassword('correct horse battery staple')).not.toBe(hash);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
    expect(await verifyPassword('anything', 'not-a-hash')).toBe(false);
  });
});
