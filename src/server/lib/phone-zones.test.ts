import { describe, expect, it } from 'vitest';
import { zoneOfNumber } from './phone-zones';

describe('the time zone of a number', () => {
  it("is its country's when the country has one zone, the team's otherwise", () => {
    expect(zoneOfNumber('447700900123', 'Europe/Berlin')).toBe('Europe/London');
    expect(zoneOfNumber('33612345678', 'Europe/London')).toBe('Europe/Paris');
    expect(zoneOfNumber('18765551234', 'Europe/London')).toBe('America/Jamaica');
    // The United States and Australia span several zones: the team's.
    expect(zoneOfNumber('12025550123', 'America/Chicago')).toBe('America/Chicago');
    expect(zoneOfNumber('61412345678', 'Australia/Perth')).toBe('Australia/Perth');
    // No country at all.
    expect(zoneOfNumber('999123456', 'Europe/London')).toBe('Europe/London');
  });
});
