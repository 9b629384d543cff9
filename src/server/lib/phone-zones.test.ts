/**
 * The zone of a recipient's number, for quiet hours in their own time (issue 32, point 6: US,
 * Canadian and Australian numbers placed by their area code). Seen red: with the area codes taken
 * out of `zoneOfNumber` (no `zoneOfAreaCode`), New York and Los Angeles both took the team's zone.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { NANP_AREA_CODES } from './area-code-zones';
import { zoneOfNumber } from './phone-zones';

describe('the time zone of a number', () => {
  it("is its country's when the country has one zone", () => {
    expect(zoneOfNumber('447700900123', 'Europe/Berlin')).toBe('Europe/London');
    expect(zoneOfNumber('33612345678', 'Europe/London')).toBe('Europe/Paris');
    expect(zoneOfNumber('18765551234', 'Europe/London')).toBe('America/Jamaica');
    expect(zoneOfNumber('17875551234', 'Europe/London')).toBe('America/Puerto_Rico');
  });

  it('is given by the area code in the United States, Canada and Australia', () => {
    const team = 'Europe/London';
    expect(zoneOfNumber('12125550123', team)).toBe('America/New_York');
    expect(zoneOfNumber('13105550123', team)).toBe('America/Los_Angeles');
    expect(zoneOfNumber('13125550123', team)).toBe('America/Chicago');
    expect(zoneOfNumber('13035550123', team)).toBe('America/Denver');
    expect(zoneOfNumber('16025550123', team)).toBe('America/Phoenix');
    expect(zoneOfNumber('19075550123', team)).toBe('America/Anchorage');
    expect(zoneOfNumber('18085550123', team)).toBe('Pacific/Honolulu');
    // Florida's panhandle (850) is mostly on Central time, the rest of Florida Eastern.
    expect(zoneOfNumber('18505550123', team)).toBe('America/Chicago');
    expect(zoneOfNumber('13055550123', team)).toBe('America/New_York');
    expect(zoneOfNumber('14165550123', team)).toBe('America/Toronto');
    expect(zoneOfNumber('16045550123', team)).toBe('America/Vancouver');
    expect(zoneOfNumber('13065550123', team)).toBe('America/Regina');
    expect(zoneOfNumber('17095550123', team)).toBe('America/St_Johns');
    expect(zoneOfNumber('61255501234', team)).toBe('Australia/Sydney');
    expect(zoneOfNumber('61355501234', team)).toBe('Australia/Melbourne');
    expect(zoneOfNumber('61755501234', team)).toBe('Australia/Brisbane');
    expect(zoneOfNumber('61882001234', team)).toBe('Australia/Adelaide');
    expect(zoneOfNumber('61889001234', team)).toBe('Australia/Darwin');
    expect(zoneOfNumber('61892001234', team)).toBe('Australia/Perth');
  });

  it("takes the team's zone only for what the data cannot place", () => {
    // An Australian mobile: the team's zone when the team is in Australia, else where most Australians live.
    expect(zoneOfNumber('61412345678', 'Australia/Perth')).toBe('Australia/Perth');
    expect(zoneOfNumber('61412345678', 'Europe/London')).toBe('Australia/Sydney');
    // A toll-free number of the North American plan is nowhere in particular.
    expect(zoneOfNumber('18005550123', 'America/Denver')).toBe('America/Denver');
    expect(zoneOfNumber('18005550123', 'Europe/London')).toBe('America/New_York');
    // Another country of several zones, and no country at all.
    expect(zoneOfNumber('5511987654321', 'Europe/London')).toBe('Europe/London');
    expect(zoneOfNumber('999123456', 'Europe/London')).toBe('Europe/London');
  });

  it('knows every geographic area code of the United States and Canada that libphonenumber knows', () => {
    const unplaced: string[] = [];
    for (let code = 200; code <= 999; code++) {
      const number = parsePhoneNumberFromString(`+1${code}2345678`) ?? parsePhoneNumberFromString(`+1${code}3456789`);
      if (!number?.isValid() || (number.country !== 'US' && number.country !== 'CA')) continue;
      const type = number.getType();
      if (type !== 'FIXED_LINE_OR_MOBILE' && type !== 'FIXED_LINE' && type !== 'MOBILE') continue;
      if (!NANP_AREA_CODES.has(String(code))) unplaced.push(String(code));
    }
    // 273: a Canadian code in libphonenumber's metadata before NANPA's list named its province.
    expect(unplaced).toEqual(['273']);
  });
});
