import { z } from 'zod';
import type { TeamSettings } from '../../../shared/contract';
import { plural } from '../../lib/format';

/** How the attribution windows read, as sentences (the summary for non-admins, the saved notice). */
export const describeClickWindow = (days: number) =>
  days === 0
    ? 'Clicks are not credited with orders.'
    : `An order is credited to a human click on a tracked link up to ${plural(days, 'day', 'days')} before it.`;
export const describeViewWindow = (hours: number) =>
  hours === 0
    ? 'Delivered messages are not credited with orders.'
    : `Failing a click, an order is credited to a campaign message delivered up to ${plural(hours, 'hour', 'hours')} before it.`;

const whole = (label: string, max: number) =>
  z
    .number({ error: `The ${label} must be a whole number.` })
    .int(`The ${label} must be a whole number.`)
    .min(0, `The ${label} must be at least 0.`)
    .max(max, `The ${label} may not be greater than ${max}.`);

export const attributionWindowsSchema = z.object({ click_window_days: whole('click window', 90), view_window_hours: whole('view window', 720) });
export type AttributionWindowsValues = z.infer<typeof attributionWindowsSchema>;

export const attributionWindowsOf = (settings: Pick<TeamSettings, 'click_window_days' | 'view_window_hours'>): AttributionWindowsValues => ({
  click_window_days: settings.click_window_days,
  view_window_hours: settings.view_window_hours,
});
