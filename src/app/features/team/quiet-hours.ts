import { z } from 'zod';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { QUIET_TIME_PATTERN, WEEKDAYS, type Weekday } from '../../../shared/schedule/quiet-hours';

export { WEEKDAYS, type Weekday };

export const WEEKDAY_LABELS: Record<Weekday, { short: string; long: string }> = {
  mon: { short: 'Mon', long: 'Monday' },
  tue: { short: 'Tue', long: 'Tuesday' },
  wed: { short: 'Wed', long: 'Wednesday' },
  thu: { short: 'Thu', long: 'Thursday' },
  fri: { short: 'Fri', long: 'Friday' },
  sat: { short: 'Sat', long: 'Saturday' },
  sun: { short: 'Sun', long: 'Sunday' },
};

/** The "Quiet hours" card: the period kept (when on) and the team's time zone. */
export interface QuietHoursValues {
  enabled: boolean;
  start: string;
  end: string;
  days: Weekday[];
  time_zone: string;
}

/** What a team that turns quiet hours on starts from: nights, every day. */
const NIGHTS = { start: '21:00', end: '08:00', days: [...WEEKDAYS] };

export function quietHoursOf(settings: Pick<TeamSettings, 'quiet_hours' | 'time_zone'>): QuietHoursValues {
  const quiet = settings.quiet_hours ?? NIGHTS;
  return { enabled: settings.quiet_hours !== null, start: quiet.start, end: quiet.end, days: [...quiet.days], time_zone: settings.time_zone };
}

export function quietHoursInput({ enabled, start, end, days, time_zone }: QuietHoursValues): Pick<TeamSettingsInput, 'quiet_hours' | 'time_zone'> {
  return { quiet_hours: enabled ? { start, end, days: WEEKDAYS.filter((day) => days.includes(day)) } : null, time_zone };
}

function describeDays(days: readonly Weekday[]): string {
  const set = WEEKDAYS.filter((day) => days.includes(day));
  const key = set.join(',');
  if (set.length === 7) return 'every day';
  if (key === 'mon,tue,wed,thu,fri') return 'Monday to Friday';
  if (key === 'sat,sun') return 'on Saturdays and Sundays';
  const names = set.map((day) => `${WEEKDAY_LABELS[day].long}s`);
  return `on ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}` : names[0]!}`;
}

/** One sentence, e.g. "Nothing is sent from 21:00 to 08:00 the next day, every day." */
export function describeQuietHours(quiet: TeamSettings['quiet_hours']): string {
  if (!quiet) return 'Off: messages are sent at any hour.';
  const overnight = quiet.end <= quiet.start;
  return `Nothing is sent from ${quiet.start} to ${quiet.end}${overnight ? ' the next day' : ''}, ${describeDays(quiet.days)}.`;
}

const time = (label: string) => z.string().regex(QUIET_TIME_PATTERN, `Enter the ${label} as a time, such as 21:00.`);

export const quietHoursSchema = z
  .object({ enabled: z.boolean(), start: z.string(), end: z.string(), days: z.array(z.enum(WEEKDAYS)), time_zone: z.string().min(1, 'Choose a time zone.') })
  .superRefine((values, context) => {
    // Switched off, the period is kept in the form (and not sent): its fields need no checking.
    if (!values.enabled) return;
    for (const [field, label] of [
      ['start', 'start'],
      ['end', 'end'],
    ] as const) {
      const checked = time(label).safeParse(values[field]);
      if (!checked.success) context.addIssue({ code: 'custom', path: [field], message: checked.error.issues[0]!.message });
    }
    if (values.start && values.start === values.end)
      context.addIssue({ code: 'custom', path: ['end'], message: 'Quiet hours must end at another time than they start.' });
    if (values.days.length === 0) context.addIssue({ code: 'custom', path: ['days'], message: 'Choose at least one day.' });
  });
