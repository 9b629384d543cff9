import { Group, SegmentedControl } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { useState } from 'react';
import { PERIOD_LENGTHS, rangeProblem, type DayRange, type OverviewPeriod, type PeriodLength } from './overview-period';

interface PeriodChooserProps {
  period: OverviewPeriod;
  /** The days the period covers now (a length is counted back from today). */
  range: DayRange;
  /** Today in the service's zone: no later day can be picked. */
  today: string;
  onChange: (period: OverviewPeriod) => void;
}

const LENGTH_OPTIONS = PERIOD_LENGTHS.map((days) => ({ value: String(days), label: `${days} days` }));

/** The last 7, 30 or 90 days, or any days picked on a calendar; the picker always shows the days in use. */
export function PeriodChooser({ period, range, today, onChange }: PeriodChooserProps) {
  return (
    <Group gap="sm" align="center">
      <SegmentedControl
        aria-label="Period"
        data={LENGTH_OPTIONS}
        // A period of picked days selects none of the lengths.
        value={'days' in period ? String(period.days) : ''}
        onChange={(value) => onChange({ days: Number(value) as PeriodLength })}
      />
      {/* Remounted when the period changes, so a half-picked range never outlives it. */}
      <RangePicker key={`${range.from}/${range.to}`} range={range} today={today} onPick={onChange} />
    </Group>
  );
}

function RangePicker({ range, today, onPick }: { range: DayRange; today: string; onPick: (range: DayRange) => void }) {
  const [value, setValue] = useState<DatesRangeValue<string>>([range.from, range.to]);
  const [error, setError] = useState<string | null>(null);
  const [month, setMonth] = useState(range.to);

  const change = (next: DatesRangeValue<string>) => {
    setValue(next);
    const [from, to] = next;
    if (!from || !to) return;
    const problem = rangeProblem({ from, to });
    setError(problem);
    if (!problem) onPick({ from, to });
  };

  return (
    <DatePickerInput
      type="range"
      aria-label="Days of the period"
      value={value}
      onChange={change}
      // Closed with one day picked: show the period in use again.
      onDropdownClose={() => {
        if (!value[0] || !value[1]) setValue([range.from, range.to]);
      }}
      // The calendar opens on the period's last month (usually this one), not its first.
      date={month}
      onDateChange={setMonth}
      maxDate={today}
      allowSingleDateInRange
      valueFormat="D MMM YYYY"
      leftSection={<IconCalendar size={16} stroke={1.6} aria-hidden />}
      error={error}
      miw={230}
    />
  );
}
