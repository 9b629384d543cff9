import { zoneName } from '../../lib/format';

interface ZoneOption {
  value: string;
  label: string;
}

// Some 400 zones, each with its offset: worked out once a page load.
let known: ZoneOption[] | undefined;

const optionOf = (zone: string): ZoneOption => ({ value: zone, label: `${zone.replace(/_/g, ' ')} (${offsetOf(zone)})` });

/** Every IANA zone this browser knows, with `current` first when the browser does not list it (e.g. an alias). */
export function timeZoneOptions(current: string): ZoneOption[] {
  known ??= Intl.supportedValuesOf('timeZone').map(optionOf);
  return !current || known.some((option) => option.value === current) ? known : [optionOf(current), ...known];
}

/** "GMT+1", "GMT-4:30", "GMT" as the zone is now. */
function offsetOf(zone: string): string {
  try {
    return zoneName(zone, new Date(), 'shortOffset') ?? zone;
  } catch {
    return zone;
  }
}
