import type { TeamSettings } from '../api/gen/types.gen';

/** A new team's settings, as the service makes them (the replies emptied: tests set the ones they need). */
export const NEW_TEAM_SETTINGS: TeamSettings = {
  name: 'Acme',
  approval_threshold: null,
  confirm_threshold: 1000,
  price_per_segment: null,
  currency: 'EUR',
  time_zone: 'Europe/London',
  quiet_hours: null,
  default_country: 'GB',
  opt_out_reply: '',
  opt_in_reply: '',
  help_reply: '',
  test_numbers: [],
  click_window_days: 5,
  view_window_hours: 24,
  frequency_cap: null,
  double_opt_in: false,
};
