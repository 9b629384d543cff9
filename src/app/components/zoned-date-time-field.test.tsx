import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '../testing/render';
import { ZonedDateTimeField } from './zoned-date-time-field';

function Field({ timeZone, initial = '', onValue }: { timeZone: string; initial?: string; onValue: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <ZonedDateTimeField
      label="Send at"
      timeZone={timeZone}
      value={value}
      onChange={(next) => {
        setValue(next);
        onValue(next);
      }}
    />
  );
}

describe('a date and time in the service’s zone', () => {
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
});
