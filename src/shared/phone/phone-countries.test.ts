/** The copy of libphonenumber's country list is the list itself (seen red with a code removed from the copy). */
import { getCountries } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { countryName, PHONE_COUNTRIES } from './phone-countries';

describe('PHONE_COUNTRIES', () => {
  it("is libphonenumber's list of countries", () => {
    expect([...PHONE_COUNTRIES]).toEqual(getCountries());
  });
  it('names each country in English', () => {
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('GB')).toBe('United Kingdom');
  });
});
