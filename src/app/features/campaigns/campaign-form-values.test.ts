import { describe, expect, it } from 'vitest';
import { throttledValues, ZONE } from './campaign-fixtures';
import { campaignErrors, liveTimeErrors } from './campaign-form-values';

describe('the campaign form’s time errors', () => {
  it('are keyed by the field each rule concerns, in the service’s words', () => {
    const values = throttledValues({
      expiry_date: '2030-07-01 08:00:00',
      pauses: [
        { start_at: '2030-07-01 10:00:00', end_at: '2030-07-01 09:30:00' },
        { start_at: '2030-07-01 18:00:00', end_at: '2030-07-01 19:00:00' },
      ],
    });

    expect(liveTimeErrors(values, ZONE)).toEqual({
      expiry_date: 'The expiry date must be after the scheduled send date.',
      scheduled_finish_date: 'The scheduled finish date may not be after the expiry date.',
      'pauses.0.end_at': 'The pause must end after it starts.',
      'pauses.1': 'The pause must lie between the scheduled send date and the scheduled finish date.',
    });
  });

  it('leave a time not yet typed (or not a real moment) out while typing, and name it on submit', () => {
    // 01:30 on 31 March 2030 does not exist in London: the clocks go from 01:00 to 02:00.
    const values = throttledValues({ scheduled_finish_date: '', pauses: [{ start_at: '2030-03-31 01:30:00', end_at: '2030-07-01 11:00:00' }] });

    const live = liveTimeErrors(values, ZONE);
    expect(live).not.toHaveProperty('scheduled_finish_date');
    expect(live).not.toHaveProperty(['pauses.0.start_at']);

    const submitted = campaignErrors(values, ZONE);
    expect(submitted['scheduled_finish_date']).toBeTruthy();
    expect(submitted['pauses.0.start_at']).toBe('The pause start is not a valid date and time in Europe/London.');
  });

  it('show the first rule a field breaks', () => {
    const values = throttledValues({ scheduled_finish_date: '2030-07-01 08:00:00', expiry_date: '2030-07-01 07:00:00' });

    expect(liveTimeErrors(values, ZONE).scheduled_finish_date).toBe('The scheduled finish date must be after the scheduled send date.');
    expect(campaignErrors(values, ZONE).scheduled_finish_date).toBe('The scheduled finish date must be after the scheduled send date.');
  });
});
