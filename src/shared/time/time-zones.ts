/** The canonical name of an IANA time zone (`europe/paris` → `Europe/Paris`), or null when it is none. */
export function canonicalTimeZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
