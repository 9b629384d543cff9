const STORAGE_KEY = 'herald.recent-fields';
const KEPT = 8;

/** A name `{{…}}` accepts: letters, digits, `_ . -`, and single inner spaces (as CSV headers become field names). */
export const FIELD_NAME = /^[\p{L}\p{N}_.-]+(?: +[\p{L}\p{N}_.-]+)*$/u;

export function recentFieldNames(): string[] {
  try {
    const stored: unknown = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((name): name is string => typeof name === 'string').slice(0, KEPT) : [];
  } catch {
    return [];
  }
}

/** The most recent first, each name once. */
export function rememberFieldName(name: string): void {
  const names = [name, ...recentFieldNames().filter((recent) => recent !== name)].slice(0, KEPT);
  window.localStorage.setItem(STORAGE_KEY, JSON.stringify(names));
}
