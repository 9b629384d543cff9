/**
 * What the import wizard warns about in a number it would import: a national number that is not
 * valid in the file's country but would be in another (the wrong country chosen, or a file of
 * another country's numbers), and a landline, which cannot receive a text. Read with
 * libphonenumber's 'max' metadata, the one that knows the types of numbers; the import itself
 * (phone-numbers.ts) stays on the smaller default metadata.
 */
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/metadata.max.json';
import { countryName } from '../../shared/phone/phone-countries';

/** How many other countries a warning names at most. */
const NAMED = 4;

const MOBILE = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

/**
 * The warning for a number of the file, or null. A national number the default country cannot
 * hold (a wrong length), or one that is a landline there, is read in every other country too: when
 * it would be a valid number there (a mobile, for a landline), the warning names those countries.
 * A possible but unassigned number (such as the 07700 900xxx range kept for examples) is not
 * warned about: too many countries would "hold" it.
 */
export function numberWarning(input: string, defaultCountry: string): string | null {
  // Read as normalizePhoneNumber reads it: a leading ' dropped, 00 as +, long bare numbers international.
  const text = input
    .trim()
    .replace(/^'\s*/, '')
    .replace(/^00(?=[1-9])/, '+');
  const digits = text.replace(/\D/g, '');
  const international = text.startsWith('+') || (!digits.startsWith('0') && digits.length > 10);
  const parsed = parsePhoneNumberFromString(international && !text.startsWith('+') ? `+${digits}` : text, defaultCountry as CountryCode);
  if (!parsed) return null;
  const landline = parsed.isValid() && parsed.getType() === 'FIXED_LINE';
  const here = countryName(defaultCountry);
  if (!international && (landline || !parsed.isPossible())) {
    const others = getCountries().filter((country) => {
      if (country === defaultCountry) return false;
      const there = parsePhoneNumberFromString(text, country);
      return there?.isValid() === true && (!landline || MOBILE.has(there.getType() ?? ''));
    });
    if (others.length > 0) {
      // The main country of each calling code first (the United States before the rest of +1).
      const main = (country: CountryCode) => metadata.country_calling_codes[getCountryCallingCode(country)]?.[0] === country;
      others.sort((a, b) => Number(main(b)) - Number(main(a)));
      const names = others.slice(0, NAMED).map(countryName).join(', ') + (others.length > NAMED ? '…' : '');
      return landline
        ? `A landline in ${here}, but a mobile number of ${names}: is the country right?`
        : `Not a number of ${here}, but a national number of ${names}: is the country right?`;
    }
  }
  if (landline) return 'A landline: it cannot receive text messages.';
  return null;
}
