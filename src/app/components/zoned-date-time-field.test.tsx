/**
 * A date and time in the service's zone, typed or picked (issue 21, point 4.3: the picker picks a
 * time too, not only a day).
 *
 * Seen red: with the field as it was (Mantine's DateInput, whose calendar picks days only), the
 * dialog test fails at its first query (no “Pick the day and time” button, no Time input).
 */
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '../testing/render';
import { ZonedDateTimeField } from './zoned-date-time-field';

function Field({ timeZone, initial = '', onValue, clearable }: { timeZone: string; initial?: string; onValue: (value: string) => void; clearable?: boolean }) {
  const [value, setValue] = useState(initial);
  return (
    <ZonedDateTimeField
      label="Send at"
      timeZone={timeZone}
      clearable={clearable}
      value={value}
      onChange={(next) => {
        setValue(next);
        onValue(next);
      }}
    />
  );
}

describe('a date and time in the service’s zone', { timeout: 20_000 }, () => {
  it('keeps what is typed as YYYY-MM-DD HH:MM:SS in that zone, and names the zone for that date', async () => {
    const onValue = vi.fn();
    const { user } = render(<Field timeZone="Europe/London" onValue={onValue} />);

    await user.type(screen.getByRole('textbox', { name: /Send at/ }), '2030-07-01 09:30');
    expect(onValue).toHaveBeenLastCalledWith('2030-07-01 09:30:00');
    expect(screen.getAllByText('Europe/London, BST').length).toBeGreaterThan(0);
  });

  it('names winter time in winter, and another zone’s wall time is not moved by the browser’s zone', async () => {
    const onValue = vi.fn();
    const { user } = render(<Field timeZone="Asia/Tokyo" initial="2030-01-15 23:45:00" onValue={onValue} />);
    expect(screen.getByRole('textbox', { name: /Send at/ })).toHaveValue('2030-01-15 23:45');
    expect(screen.getAllByText('Asia/Tokyo, GMT+9').length).toBeGreaterThan(0);

    const field = screen.getByRole('textbox', { name: /Send at/ });
    await user.clear(field);
    await user.type(field, '2030-01-16 00:15');
    expect(onValue).toHaveBeenLastCalledWith('2030-01-16 00:15:00');
  });

  it('refuses a time the clocks skip in that zone (the spring-forward hour)', async () => {
    const onValue = vi.fn();
    const { user } = render(<Field timeZone="Europe/London" onValue={onValue} />);
    await user.type(screen.getByRole('textbox', { name: /Send at/ }), '2030-03-31 01:30');
    expect(onValue).not.toHaveBeenCalledWith('2030-03-31 01:30:00');
  });

  it('picks a day and a time in its dialog, keeping the other half, and refuses a time the clocks skip', async () => {
    const onValue = vi.fn();
    const { user } = render(<Field timeZone="Europe/London" initial="2030-03-30 01:30:00" onValue={onValue} />);

    await user.click(screen.getByRole('button', { name: 'Pick the day and time: Send at' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pick the day and time: Send at' });
    const clock = within(dialog).getByLabelText(/^Time/);
    await user.clear(clock);
    await user.type(clock, '14:45');
    expect(onValue).toHaveBeenLastCalledWith('2030-03-30 14:45:00');

    await user.clear(clock);
    await user.type(clock, '01:30');
    await user.click(within(dialog).getByRole('button', { name: '31 March 2030' }));
    // 01:30 on 31 March does not exist in London (the clocks go from 01:00 to 02:00).
    expect(within(dialog).getByText('The clocks skip that time on that day in Europe/London.')).toBeInTheDocument();
    expect(onValue).toHaveBeenLastCalledWith('2030-03-30 01:30:00');
    expect(screen.getByRole('textbox', { name: /Send at/ })).toHaveValue('2030-03-30 01:30');
  });

  it('empties an optional time with its clear button', async () => {
    const onValue = vi.fn();
    const { user } = render(<Field timeZone="Europe/London" initial="2030-07-01 09:00:00" onValue={onValue} clearable />);
    await user.click(screen.getByRole('button', { name: 'Clear Send at' }));
    expect(onValue).toHaveBeenLastCalledWith('');
    expect(screen.getByRole('textbox', { name: /Send at/ })).toHaveValue('');
  });
});
