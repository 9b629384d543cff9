import { ActionIcon, Button, CloseButton, Group, Popover, Stack, Text, TextInput } from '@mantine/core';
import { DatePicker, TimeInput } from '@mantine/dates';
import { IconCalendarClock } from '@tabler/icons-react';
import { useState, type Ref } from 'react';
import { useController, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { parseTimestamp } from '../../shared/time/local-timestamps';
import { writesMonthFirst } from '../lib/format';
import { serviceTimestamp, zoneLabel } from '../lib/service-zone';

/** What may be typed: `YYYY-MM-DD HH:MM` or `YYYY-MM-DD HH:MM:SS`, as the service writes it. */
const TYPED = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
/** Or as people write it: `28/11/2026 10:00`, `11/28/2026 10:00 pm`, `28.11.2026, 10:00` (day and month in the locale's order). */
const LOCAL = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}),?\s+(\d{1,2})[:.h](\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?$/i;
const CLOCK = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;
const DEFAULT_TIME = '09:00:00';
export const UNREAD_TIME_MESSAGE = 'Type the date and time as 28/11/2026 10:00 or 2026-11-28 10:00.';

const two = (n: number) => String(n).padStart(2, '0');

/** A date in the locale's order as `YYYY-MM-DD HH:MM:SS`; the other order when only it names a real day. */
function fromLocalForm(text: string, locale: string): string | null {
  const match = LOCAL.exec(text);
  if (!match) return null;
  const [a, b, year, hour, minute, second = '00', meridiem] = match.slice(1).map((part) => part ?? undefined) as string[];
  let hours = Number(hour);
  if (meridiem) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (meridiem.toLowerCase().startsWith('p') ? 12 : 0);
  }
  if (hours > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  const realDay = (month: number, day: number) => {
    const date = new Date(Date.UTC(Number(year), month - 1, day));
    return month >= 1 && month <= 12 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  };
  const readings: Array<[number, number]> = writesMonthFirst(locale)
    ? [
        [Number(a), Number(b)],
        [Number(b), Number(a)],
      ]
    : [
        [Number(b), Number(a)],
        [Number(a), Number(b)],
      ];
  const reading = readings.find(([month, day]) => realDay(month, day));
  return reading ? `${year}-${two(reading[0])}-${two(reading[1])} ${two(hours)}:${minute}:${second}` : null;
}

/**
 * A typed local time, as `YYYY-MM-DD HH:MM:SS`, when it names a real moment in the zone (not a
 * skipped spring-forward hour): the service's form, or the day, month and year in the order of
 * `locale` (the browser's) with a time.
 */
export function parseTypedTimestamp(text: string, timeZone: string, locale: string = navigator.language): string | null {
  const trimmed = text.trim();
  const match = TYPED.exec(trimmed);
  const timestamp = match ? `${match[1]} ${match[2]}:${match[3]}:${match[4] ?? '00'}` : fromLocalForm(trimmed, locale);
  return timestamp && parseTimestamp(timestamp, timeZone) ? timestamp : null;
}

interface ZonedDateTimeFieldProps {
  label: string;
  description?: string;
  /** `YYYY-MM-DD HH:MM:SS` in `timeZone`, or '' when not set. */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  /** The service's zone (APP_TIMEZONE): what is typed or picked is read there, whatever the browser's zone. */
  timeZone: string;
  error?: string;
  readOnly?: boolean;
  withAsterisk?: boolean;
  /** An optional time: emptying the field, or its clear button, sets ''. */
  clearable?: boolean;
  /** `YYYY-MM-DD`: days before it cannot be picked or typed (nothing is planned in the past). */
  minDate?: string;
  /** Called with the new value after a person changed the field (not when the form moves it). */
  onEdited?: (value: string) => void;
}

/**
 * A date and time in the service's zone. The value is the wall-clock text itself, never a browser
 * Date, so no conversion through the browser's zone can shift it; the zone is named beside it.
 * The text can be typed; the button beside it opens a day and a time to pick (a dialog reached
 * by keyboard too: arrows move through the days, Escape closes it).
 */
export function ZonedDateTimeField({
  label,
  description,
  value,
  onChange,
  onBlur,
  inputRef,
  timeZone,
  error,
  readOnly,
  withAsterisk,
  clearable,
  minDate,
  onEdited,
}: ZonedDateTimeFieldProps) {
  // What is being typed; null shows the value. A text that names no moment stays on blur, refused with a message.
  const [draft, setDraft] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const zone = zoneLabel(timeZone, value);
  const day = value.slice(0, 10);
  const time = value.slice(11) || DEFAULT_TIME;
  // The day a time picked for an empty field goes on (and the month its calendar opens at).
  const dayOrFirst = day || minDate || serviceTimestamp(timeZone).slice(0, 10);
  // The time being edited in the dialog (a native time input is '' while a part of it is cleared).
  const [clockDraft, setClockDraft] = useState<string | null>(null);
  const [timeRefused, setTimeRefused] = useState(false);

  const change = (next: string) => {
    onChange(next);
    onEdited?.(next);
  };
  const allowedDay = (timestamp: string) => !minDate || timestamp.slice(0, 10) >= minDate;
  const parsedDraft = (text: string) => parseTypedTimestamp(text, timeZone);
  /** Why typed text is not taken (it names no moment, or a day before minDate); null when it is. */
  const refusalOf = (text: string) => {
    const parsed = parsedDraft(text);
    if (!parsed) return UNREAD_TIME_MESSAGE;
    return allowedDay(parsed) ? null : `Pick a day from ${minDate} on: nothing is planned in the past.`;
  };

  const typed = (text: string) => {
    setDraft(text);
    setRefusal(null);
    if (text.trim() === '') {
      if (clearable && value !== '') change('');
      return;
    }
    const next = parsedDraft(text);
    if (next && allowedDay(next)) change(next);
  };

  /** A day or a time picked in the dialog: the other half is kept. */
  const picked = (nextDay: string, nextTime: string) => {
    const next = `${nextDay} ${nextTime}`;
    const valid = parseTimestamp(next, timeZone) !== null;
    setTimeRefused(!valid);
    setDraft(null);
    setRefusal(null);
    if (valid) change(next);
  };

  const clearButton = clearable && value !== '' && !readOnly && (
    <CloseButton
      size="sm"
      aria-label={`Clear ${label}`}
      onClick={() => {
        setDraft(null);
        change('');
      }}
    />
  );
  const pickerButton = !readOnly && (
    <Popover
      opened={picking}
      onChange={setPicking}
      position="bottom-end"
      shadow="md"
      trapFocus
      returnFocus
      onClose={() => {
        setClockDraft(null);
        setTimeRefused(false);
      }}
    >
      <Popover.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Pick the day and time: ${label}`} onClick={() => setPicking((open) => !open)}>
          <IconCalendarClock size={18} aria-hidden />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm">
          <DatePicker
            value={day || null}
            defaultDate={dayOrFirst}
            minDate={minDate}
            onChange={(nextDay) => nextDay && picked(nextDay, time)}
            // The picked day takes the focus when the dialog opens, so arrows move from it.
            getDayProps={(date) => (date === day ? { 'data-autofocus': true } : {})}
          />
          <TimeInput
            label="Time"
            description={zone}
            value={clockDraft ?? time.slice(0, 5)}
            onChange={(event) => {
              const text = event.currentTarget.value;
              setClockDraft(text);
              const clock = CLOCK.exec(text);
              if (clock) picked(dayOrFirst, `${clock[1]}:${clock[2]}:00`);
            }}
            onBlur={() => setClockDraft(null)}
            error={timeRefused ? `The clocks skip that time on that day in ${timeZone}.` : undefined}
          />
          <Button size="xs" variant="light" onClick={() => setPicking(false)}>
            Done
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );

  return (
    <TextInput
      ref={inputRef}
      label={label}
      description={
        <>
          {description && `${description} `}
          <Text span inherit fw={600} c="indigo">
            {zone}
          </Text>
        </>
      }
      withAsterisk={withAsterisk}
      placeholder="YYYY-MM-DD HH:MM"
      value={draft ?? value.slice(0, 16)}
      onChange={(event) => typed(event.currentTarget.value)}
      onBlur={() => {
        // Text that names no moment is never silently replaced by the old value: it stays, refused,
        // and the form holds it too (so it cannot be saved as the time it showed before).
        const refused = draft === null || draft.trim() === '' ? null : refusalOf(draft);
        setRefusal(refused);
        if (refused === null) setDraft(null);
        else if (draft !== null && value !== draft) change(draft);
        onBlur?.();
      }}
      readOnly={readOnly}
      error={refusal ?? error}
      autoComplete="off"
      spellCheck={false}
      rightSection={
        (clearButton || pickerButton) && (
          <Group gap={2} wrap="nowrap">
            {clearButton}
            {pickerButton}
          </Group>
        )
      }
      rightSectionWidth={clearButton && pickerButton ? 60 : clearButton || pickerButton ? 36 : undefined}
      rightSectionPointerEvents="all"
    />
  );
}

interface ZonedDateTimeInputProps<TValues extends FieldValues, TTransformed> extends Omit<
  ZonedDateTimeFieldProps,
  'value' | 'onChange' | 'onBlur' | 'inputRef'
> {
  control: Control<TValues, unknown, TTransformed>;
  /** A text field of the form holding `YYYY-MM-DD HH:MM:SS` in `timeZone`, or ''. */
  name: FieldPathByValue<TValues, string>;
}

/** A {@link ZonedDateTimeField} bound to a react-hook-form field: its value, changes, blur and focus. */
export function ZonedDateTimeInput<TValues extends FieldValues, TTransformed>({ control, name, ...field }: ZonedDateTimeInputProps<TValues, TTransformed>) {
  const { field: input } = useController({ control, name });
  return <ZonedDateTimeField {...field} value={input.value as string} onChange={input.onChange} onBlur={input.onBlur} inputRef={input.ref} />;
}
