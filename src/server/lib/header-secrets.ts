import { maskedSecret, SECRET_MASK } from './masked-secret';
import type { SecretBox } from './secret-box';

/**
 * Custom headers of webhooks and event endpoints (an `Authorization: Bearer …` for a CRM) are
 * credentials: stored sealed (the secret box, like signing secrets), name by name, and shown masked.
 * A stored value is `sealed:` and the sealed bytes in base64; one without the prefix was stored
 * before values were sealed and is read as it is (and sealed at the next start, `sealStoredHeaders`).
 */
const SEALED = 'sealed:';

export type StoredHeaders = Record<string, string>;

export const isSealed = (value: string) => value.startsWith(SEALED);

const openValue = (box: SecretBox, value: string) => (isSealed(value) ? box.open(Buffer.from(value.slice(SEALED.length), 'base64')) : value);

/** A value as an admin sees it after creation (lib/masked-secret.ts). */
export const maskedValue = maskedSecret;

/** The headers as they are sent. */
export function openHeaders(box: SecretBox, stored: StoredHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(stored).map(([name, value]) => [name, openValue(box, value)]));
}

/**
 * The headers to store from those a request gave. A value that is the mask an admin was shown for the
 * same header (a form sending back what it read) keeps the stored value, never the mask.
 */
export function sealHeaders(box: SecretBox, given: Record<string, string>, stored: StoredHeaders = {}): StoredHeaders {
  const before = new Map(Object.entries(stored).map(([name, value]) => [name.toLowerCase(), value]));
  return Object.fromEntries(
    Object.entries(given).map(([name, value]) => {
      const kept = before.get(name.toLowerCase());
      if (kept !== undefined && value.startsWith(SECRET_MASK) && value === maskedValue(openValue(box, kept)))
        return [name, isSealed(kept) ? kept : seal(box, kept)];
      return [name, seal(box, value)];
    }),
  );
}

const seal = (box: SecretBox, plain: string) => `${SEALED}${box.seal(plain).toString('base64')}`;

/** Who reads: an admin with a full token sees the last 4 characters of a value; other roles and read-only tokens none. */
export type HeaderReader = 'admin' | 'other';
export const headerReaderOf = (auth: { role: string; scope: string }): HeaderReader => (auth.role === 'admin' && auth.scope === 'full' ? 'admin' : 'other');

/** What a reader sees: the names, and each value masked. */
export function maskHeaders(box: SecretBox, stored: StoredHeaders, reader: HeaderReader): Record<string, string> {
  return Object.fromEntries(Object.entries(stored).map(([name, value]) => [name, reader === 'admin' ? maskedValue(openValue(box, value)) : SECRET_MASK]));
}

/** Stored headers with a value not sealed yet (written before values were sealed), sealed. */
export function sealLegacy(box: SecretBox, stored: StoredHeaders): StoredHeaders | null {
  if (Object.values(stored).every(isSealed)) return null;
  return Object.fromEntries(Object.entries(stored).map(([name, value]) => [name, isSealed(value) ? value : seal(box, value)]));
}
