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
import { parseTypedTimestamp, UNREAD_TIME_MESSAGE, ZonedDateTimeField } from './zoned-date-time-field';

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

  // Issue 32: a date typed as people write it is understood, or refused with a message and kept,
  // never silently put back. Seen red with the field as it was: "28/11/2026 10:00" was never taken
  // and, on leaving the field, the text went back to the old value without a word.
  it('understands a date typed in the locale’s order, and reads the other order when only it is a real day', () => {
    expect(parseTypedTimestamp('28/11/2026 10:00', 'Europe/London', 'en-GB')).toBe('2026-11-28 10:00:00');
    expect(parseTypedTimestamp('01/02/2026 10:00', 'Europe/London', 'en-GB')).toBe('2026-02-01 10:00:00');
    expect(parseTypedTimestamp('01/02/2026 10:00', 'Europe/London', 'en-US')).toBe('2026-01-02 10:00:00');
    expect(parseTypedTimestamp('28/11/2026 10:00', 'Europe/London', 'en-US')).toBe('2026-11-28 10:00:00');
    expect(parseTypedTimestamp('11/28/2026 10:30 pm', 'Europe/London', 'en-US')).toBe('2026-11-28 22:30:00');
    expect(parseTypedTimestamp('28.11.2026, 09:05', 'Europe/Berlin', 'de-DE')).toBe('2026-11-28 09:05:00');
    expect(parseTypedTimestamp('31/02/2026 10:00', 'Europe/London', 'en-GB')).toBeNull();
    expect(parseTypedTimestamp('28/11/2026 25:00', 'Europe/London', 'en-GB')).toBeNull();
  });

  it('takes "28/11/2026 10:00" typed in the field', async () => {
    const onValue = vi.fn();
    const { user } = render(<Field timeZone="Europe/London" initial="2026-11-20 09:00:00" onValue={onValue} />);
    const field = screen.getByRole('textbox', { name: /Send at/ });
    await user.clear(field);
    await user.type(field, '28/11/2026 10:00');
    expect(onValue).toHaveBeenLastCalledWith('2026-11-28 10:00:00');
    await user.tab();
    expect(field).toHaveValue('2026-11-28 10:00');
  });

  it('keeps text it cannot read when the field is left, says how to type it, and does not keep the old time', async () => {
    const onValue = vi.fn();
    const { user } = render(<Field timeZone="Europe/London" initial="2026-11-20 09:00:00" onValue={onValue} />);
    const field = screen.getByRole('textbox', { name: /Send at/ });
    await user.clear(field);
    await user.type(field, '28/13/2026 10:00');
    await user.tab();
    expect(field).toHaveValue('28/13/2026 10:00');
    expect(screen.getByText(UNREAD_TIME_MESSAGE)).toBeInTheDocument();
    // The form holds the text, so its own rules refuse it rather than send the old time.
    expect(onValue).toHaveBeenLastCalledWith('28/13/2026 10:00');
  });
});
