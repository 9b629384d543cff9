import { describe, expect, it } from 'vitest';
import { normalizePhoneNumber } from './phone-numbers';

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
