/**
 * Phone numbers as Herald reads them. The fast path (`acceptedQuickly`) must give exactly
 * libphonenumber's answer: the second block reads some 60,000 numbers of every country, in every
 * form (international, bare, `00`, national with and without the national prefix, spaced), with
 * several default countries, both ways, and compares. Checked once that it fails when the fast
 * path forgets the national prefix (the `nationalPrefix` test in the international branch removed):
 * +44 0… numbers are then accepted with the 0 kept.
 */
import { describe, expect, it } from 'vitest';
import { getCountries, getCountryCallingCode, getExampleNumber, type CountryCode } from 'libphonenumber-js';
import examples from 'libphonenumber-js/mobile/examples';
import { acceptedQuickly, normalizePhoneNumber, normalizeWithLibphonenumber } from './phone-numbers';

describe('normalizePhoneNumber', () => {
  it.each([
    ['07700 900123', '447700900123'],
    ['+44 7700 900123', '447700900123'],
    ['447700900123', '447700900123'],
    ['0044 7700 900123', '447700900123'],
    ['(07700) 900-123', '447700900123'],
    ['+1 212 555 0123', '12125550123'],
    ['+33 6 12 34 56 78', '33612345678'],
  ])('reads %s as %s (default country GB)', (input, expected) => {
    expect(normalizePhoneNumber(input, 'GB')).toEqual({ ok: true, number: expected });
  });

  it('reads national numbers in the default country', () => {
    expect(normalizePhoneNumber('06 12 34 56 78', 'FR')).toEqual({ ok: true, number: '33612345678' });
  });

  it.each([
    ['', 'is empty'],
    ['hello', 'is not a phone number'],
    ['0770090', 'is not a valid number for GB'],
    ['+44 7700 900123 999', 'is too long'],
    ['12', 'is too short'],
    ['+999 123456', 'has no country code and is not a national number of the default country'],
  ])('refuses %j with a reason', (input, reason) => {
    expect(normalizePhoneNumber(input, 'GB')).toEqual({ ok: false, reason });
  });
});

/** A repeatable stream of digits (the corpus is the same on every run). */
function digitsFrom(seed: number) {
  let state = seed;
  return (count: number, first = '123456789') => {
    let out = '';
    for (let i = 0; i < count; i++) {
      state = (state * 1103515245 + 12345) % 2147483648;
      out += i === 0 ? first[state % first.length] : String(state % 10);
    }
    return out;
  };
}

const spaced = (digits: string) => digits.replace(/(\d{3})(?=\d)/g, '$1 ');

function corpus(): Array<{ input: string; country: string }> {
  const countries = getCountries();
  const random = digitsFrom(20_261_126);
  const inputs: Array<{ input: string; country: string }> = [];
  const defaults: CountryCode[] = ['GB', 'US', 'FR', 'DE', 'BR', 'IN'];
  countries.forEach((country, index) => {
    const callingCode = getCountryCallingCode(country);
    const forms = (national: string, withPrefix: string) => [
      `+${callingCode}${national}`,
      `${callingCode}${national}`,
      `00${callingCode}${national}`,
      `+${callingCode} ${spaced(national)}`,
      `+${callingCode}0${national}`,
      withPrefix,
      national,
      spaced(withPrefix),
    ];
    const numbers: string[] = [];
    const example = getExampleNumber(country, examples);
    if (example) numbers.push(...forms(example.nationalNumber, `0${example.nationalNumber}`));
    for (let length = 4; length <= 15; length++) {
      const national = random(length);
      numbers.push(...forms(national, `0${national}`), `+${callingCode}${random(length, '0123456789')}`);
    }
    for (const input of numbers) {
      inputs.push({ input, country });
      inputs.push({ input, country: defaults[index % defaults.length]! });
    }
  });
  // National prefixes that carry a carrier code or rewrite the number (Brazil, Argentina, Mexico, Colombia).
  for (const [input, country] of [
    ['0 15 11 98765 4321', 'BR'],
    ['0 21 21 2345 6789', 'BR'],
    ['90 21 11 98765 4321', 'BR'],
    ['011 15 2345 6789', 'AR'],
    ['0 341 15 234 5678', 'AR'],
    ['044 55 1234 5678', 'MX'],
    ['045 33 1234 5678', 'MX'],
    ['01 55 1234 5678', 'MX'],
    ['03 1 234 5678', 'CO'],
    ['09 4 234 5678', 'CO'],
  ] as const)
    inputs.push({ input, country });
  for (let i = 0; i < 3000; i++) {
    const digits = random(1 + (i % 18), '0123456789');
    for (const input of [digits, `+${digits}`, `0${digits}`]) inputs.push({ input, country: defaults[i % defaults.length]! });
  }
  return inputs;
}

describe('the fast path', () => {
  it('gives libphonenumber’s answer for every number of every country, in every form', () => {
    const inputs = corpus();
    let quick = 0;
    const differences: string[] = [];
    for (const { input, country } of inputs) {
      const ours = normalizePhoneNumber(input, country);
      const text = input.trim().replace(/^00(?=[1-9])/, '+');
      const digits = text.replace(/\D/g, '');
      const bare = !text.startsWith('+') && !digits.startsWith('0') && digits.length > 10;
      const reference = normalizeWithLibphonenumber(bare ? `+${digits}` : text, country);
      if (JSON.stringify(ours) !== JSON.stringify(reference))
        differences.push(`${input} in ${country}: ${JSON.stringify(ours)} ≠ ${JSON.stringify(reference)}`);
      if (acceptedQuickly(digits, text.startsWith('+') || bare, country) !== undefined) quick += 1;
    }
    expect(differences.slice(0, 20)).toEqual([]);
    expect(inputs.length).toBeGreaterThan(40_000);
    // Not vacuous: a good share of the corpus takes the fast path.
    expect(quick).toBeGreaterThan(inputs.length / 10);
  });

  it('is taken by the usual shapes of a contacts file', () => {
    expect(acceptedQuickly('447700900123', true, 'GB')).toBe('447700900123');
    expect(acceptedQuickly('07700900123', false, 'GB')).toBe('447700900123');
    expect(acceptedQuickly('0612345678', false, 'FR')).toBe('33612345678');
    expect(acceptedQuickly('14155550123', true, 'GB')).toBe('14155550123');
  });
});
