import { Metadata, parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * Each calling code's countries, its main one first (`44`: GB, GG, IM, JE), from the metadata the
 * library ships (its Metadata class has the lookup, untyped in its declarations).
 */
const metadata = new Metadata() as unknown as { getCountryCodesForCallingCode(code: string): string[] | undefined };

/**
 * One rule of a team's routes, as stored (sms_routes.rules) and as the API shows it: the countries it
 * covers (ISO 3166 alpha-2, or `*` for any), the connections to try in order (their uuids), and the
 * sender to use through them (null: the campaign's, when the connection may send from it, else the
 * connection's first).
 */
export type RouteRule = { countries: string[]; connections: string[]; sender: string | null };

/**
 * The country a recipient's number belongs to (libphonenumber), or null when it names none. A number
 * its metadata cannot place in one country of its calling code (an example number such as
 * +44 7700 900123, or one newer than the metadata) belongs to the code's main country: +44 is GB.
 */
export function countryOfNumber(phoneNumber: string): string | null {
  const parsed = parsePhoneNumberFromString(phoneNumber.startsWith('+') ? phoneNumber : `+${phoneNumber}`);
  if (!parsed) return null;
  return parsed.country ?? metadata.getCountryCodesForCallingCode(parsed.countryCallingCode)?.[0] ?? null;
}

/**
 * A team's rules as the router applies them: the stored ones, or, when the team has none, every
 * enabled connection (`enabledInOrder`, their uuids in the order they were made) for every country.
 */
export function rulesOrDefault(stored: RouteRule[] | null | undefined, enabledInOrder: string[]): RouteRule[] {
  return stored ?? [{ countries: ['*'], connections: enabledInOrder, sender: null }];
}

/** The first rule covering `country` (a rule with `*` covers every country, and numbers of none). */
export function ruleFor(rules: readonly RouteRule[], country: string | null): RouteRule | undefined {
  return rules.find((rule) => rule.countries.includes('*') || (country !== null && rule.countries.includes(country)));
}

/**
 * The `from` of a message through a connection: the rule's sender when set; else the campaign's when
 * the connection may send from it (or lists no senders); else the connection's first sender.
 */
export function senderFor(ruleSender: string | null | undefined, campaignSender: string, connectionSenders: readonly string[]): string {
  if (ruleSender) return ruleSender;
  if (connectionSenders.length === 0 || connectionSenders.includes(campaignSender)) return campaignSender;
  return connectionSenders[0]!;
}
