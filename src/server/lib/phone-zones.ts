import { getCountry } from 'countries-and-timezones';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * The time zone of a number's country, for quiet hours in the recipient's own time: the country
 * comes from the number (libphonenumber), its zones from the countries-and-timezones dataset. A
 * country of one zone gives it; one of several (the United States, Australia…) or a number of no
 * known country gives `fallback`, the team's zone. Looked up once per leading six digits, which
 * settle the country of any number.
 */
const byPrefix = new Map<string, string | null>();

export function zoneOfNumber(digits: string, fallback: string): string {
  const prefix = digits.slice(0, 6);
  let zone = byPrefix.get(prefix);
  if (zone === undefined) {
    // A number valid in no table yet (07700 900xxx, kept for examples) still has its calling code's main country.
    const parsed = parsePhoneNumberFromString(`+${digits}`);
    const country = parsed?.country ?? parsed?.getPossibleCountries()[0];
    const zones = country ? (getCountry(country)?.timezones ?? []) : [];
    zone = zones.length === 1 ? zones[0]! : null;
    byPrefix.set(prefix, zone);
  }
  return zone ?? fallback;
}
