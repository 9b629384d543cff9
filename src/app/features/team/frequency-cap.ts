import { z } from 'zod';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { plural } from '../../lib/format';

/** What counts towards the cap, said once for the card and the summary. */
export const FREQUENCY_CAP_COUNTS =
  'Counted: your campaigns’ messages that went out and your flows’ marketing steps. Test sends, replies (keyword and inbox), opt-in confirmations and steps marked transactional never count and are never held back.';

/** How the cap reads, as a sentence (the summary for non-admins, the saved notice). */
export const describeFrequencyCap = (cap: TeamSettings['frequency_cap']) =>
  cap === null
    ? 'No frequency cap: a number gets every marketing message sent to it.'
    : `At most ${plural(cap.messages, 'marketing message', 'marketing messages')} to a number in any ${plural(cap.days, 'day', 'days')}; those over it are not sent (unsent: frequency cap).`;

/** The "Frequency cap" card: on or off, and the cap when on. */
export interface FrequencyCapValues {
  enabled: boolean;
  messages: number;
  days: number;
}

/** What a team that turns the cap on starts from: four a week. */
const WEEKLY = { messages: 4, days: 7 };

const whole = (label: string, min: number, max: number) =>
  z
    .number({ error: `The ${label} must be a whole number.` })
    .int(`The ${label} must be a whole number.`)
    .min(min, `The ${label} must be at least ${min}.`)
    .max(max, `The ${label} may not be greater than ${max}.`);

export const frequencyCapSchema = z.union([
  z.object({ enabled: z.literal(false), messages: z.number(), days: z.number() }),
  z.object({ enabled: z.literal(true), messages: whole('number of messages', 1, 10_000), days: whole('number of days', 1, 90) }),
]);

export const frequencyCapOf = (settings: Pick<TeamSettings, 'frequency_cap'>): FrequencyCapValues =>
  settings.frequency_cap === null ? { enabled: false, ...WEEKLY } : { enabled: true, ...settings.frequency_cap };

export const frequencyCapInput = ({ enabled, messages, days }: FrequencyCapValues): Pick<TeamSettingsInput, 'frequency_cap'> => ({
  frequency_cap: enabled ? { messages, days } : null,
});
