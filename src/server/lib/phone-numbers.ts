import { parsePhoneNumberFromString, type CountryCode, validatePhoneNumberLength } from 'libphonenumber-js';

export type NormalizedPhoneNumber = { ok: true; number: string } | { ok: false; reason: string };

const REASONS: Record<string, string> = {
  INVALID_COUNTRY: 'has no country code and is not a national number of the default country',
  NOT_A_NUMBER: 'is not a phone number',
  TOO_SHORT: 'is too short',
  TOO_LONG: 'is too long',
  INVALID_LENGTH: 'has an invalid length',
};

/**
 * E.164 digits without `+` (`447700900123`), the form every number is stored and matched in.
 * National numbers are read in `defaultCountry` (UK `07…` -> `447…`); `00` and `+` prefixes are international.
 * A number is accepted when it is valid for its country, or when it is well-formed and as long as
 * a subscriber number (9+ digits): allocation changes faster than any table (and 07700 900xxx,
 * reserved for examples, must work), so the carrier has the last word on those.
 */
export function normalizePhoneNumber(input: string, defaultCountry: string): NormalizedPhoneNumber {
  const text = input.trim().replace(/^00(?=[1-9])/, '+');
  if (text === '') return { ok: false, reason: 'is empty' };
  if (/[^\d\s()+.\-/]/.test(text)) return { ok: false, reason: REASONS.NOT_A_NUMBER! };
  // A bare number long enough to carry a country code (447…) is read as international.
  const digits = text.replace(/\D/g, '');
  const withPlus = !text.startsWith('+') && !digits.startsWith('0') && digits.length > 10 ? `+${digits}` : text;
  const country = defaultCountry as CountryCode;
  // Parsed once; the cheap length checks first (imports run this a million times).
  const parsed = parsePhoneNumberFromString(withPlus, country);
  if (parsed && ((parsed.isPossible() && parsed.nationalNumber.length >= 9) || parsed.isValid())) return { ok: true, number: parsed.number.slice(1) };
  const lengthProblem = validatePhoneNumberLength(withPlus, country);
  if (lengthProblem) return { ok: false, reason: REASONS[lengthProblem] ?? REASONS.NOT_A_NUMBER! };
  if (!parsed) return { ok: false, reason: REASONS.NOT_A_NUMBER! };
  return { ok: false, reason: `is not a valid number for ${parsed.country ?? `+${parsed.countryCallingCode}`}` };
}
