import { getCountry, getTimezone } from 'countries-and-timezones';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { zoneOfAreaCode } from './area-code-zones';

/** Where a number's leading digits place it: a zone, or only a country of several zones (or none). */
type Placement = { zone: string } | { country: string | null };

/**
 * The zone of the countries of many zones whose numbers an area code cannot always place (a mobile
 * in Australia, a toll-free number in North America): the zone most of their people live in.
 */
const MAIN_ZONE: Record<string, string> = { US: 'America/New_York', CA: 'America/Toronto', AU: 'Australia/Sydney' };

/**
 * The time zone of a number, for quiet hours in the recipient's own time:
 * - a country of one zone (libphonenumber's country of the number, the countries-and-timezones
 *   dataset's zones) gives it;
 * - in the United States, Canada and Australia the area code gives it (`area-code-zones.ts`);
 * - a number placed in a country of several zones but no further (an Australian mobile) takes the
 *   team's zone when the team is in that country, else the country's main zone (`MAIN_ZONE`);
 * - anything else (another country of several zones, a number of no known country) takes
 *   `fallback`, the team's zone.
 * Looked up once per leading six digits, which settle the country and the area code of any number.
 */
const byPrefix = new Map<string, Placement>();

export function zoneOfNumber(digits: string, fallback: string): string {
  const prefix = digits.slice(0, 6);
  let placement = byPrefix.get(prefix);
  if (placement === undefined) {
    placement = placementOf(digits);
    byPrefix.set(prefix, placement);
  }
  if ('zone' in placement) return placement.zone;
  const main = placement.country === null ? undefined : MAIN_ZONE[placement.country];
  const teamCountries: readonly string[] = getTimezone(fallback)?.countries ?? [];
  return main === undefined || teamCountries.includes(placement.country!) ? fallback : main;
}

function placementOf(digits: string): Placement {
  // A number valid in no table yet (07700 900xxx, kept for examples) still has its calling code's main country.
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (!parsed) return { country: null };
  const country = parsed.country ?? parsed.getPossibleCountries()[0] ?? null;
  const zones = country ? (getCountry(country)?.timezones ?? []) : [];
  if (zones.length === 1) return { zone: zones[0]! };
  // The area codes of the United States and Canada (+1), whatever libphonenumber makes of the rest of the number, and of Australia (+61).
  const plan = parsed.countryCallingCode === '1' ? 'NANP' : parsed.countryCallingCode === '61' ? 'AU' : null;
  const zone = plan ? zoneOfAreaCode(plan, parsed.nationalNumber) : undefined;
  return zone ? { zone } : { country };
}
