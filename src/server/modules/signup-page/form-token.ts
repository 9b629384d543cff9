import { createHmac, timingSafeEqual } from 'node:crypto';

/** A person takes at least this long to fill the form; a post sooner than this after the page was served is a script. */
export const MIN_FILL_MS = 2_000;
/** A form served longer ago than this is sent again with a fresh token (a replayed post of an old page). */
export const MAX_FORM_AGE_MS = 2 * 3_600_000;

export type FormTokenVerdict = 'ok' | 'too_fast' | 'expired' | 'invalid';

/**
 * The sign-up form's token: when the page was served and for which slug, signed with a key derived
 * from the secret key, so a script cannot post without loading the page first, cannot post the
 * moment it loaded it, and cannot replay a captured post for longer than MAX_FORM_AGE_MS. It holds
 * no secret and no state: every process checks it alike.
 */
export function createFormTokens(secretKey: Buffer) {
  const key = createHmac('sha256', secretKey).update('herald signup form token').digest();
  const sign = (slug: string, issued: string) => createHmac('sha256', key).update(`${slug}\n${issued}`).digest('base64url');

  return {
    issue(slug: string, now: Date): string {
      const issued = now.getTime().toString(36);
      return `${issued}.${sign(slug, issued)}`;
    },

    check(token: string | undefined, slug: string, now: Date): FormTokenVerdict {
      const [issued, signature, ...rest] = (token ?? '').split('.');
      if (!issued || !signature || rest.length > 0 || !/^[0-9a-z]{1,12}$/.test(issued)) return 'invalid';
      const expected = Buffer.from(sign(slug, issued));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
      const age = now.getTime() - parseInt(issued, 36);
      if (age < MIN_FILL_MS) return 'too_fast';
      if (age > MAX_FORM_AGE_MS) return 'expired';
      return 'ok';
    },
  };
}
export type FormTokens = ReturnType<typeof createFormTokens>;
