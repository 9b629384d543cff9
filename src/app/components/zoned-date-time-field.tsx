import { Text } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import type { Ref } from 'react';
import { useController, type Control, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { parseTimestamp } from '../../shared/time/local-timestamps';
import { zoneLabel } from '../lib/service-zone';

/** What may be typed: `YYYY-MM-DD HH:MM` or `YYYY-MM-DD HH:MM:SS`, as the service writes it. */
const TYPED = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DEFAULT_TIME = '09:00:00';

/** A typed local time, as `YYYY-MM-DD HH:MM:SS`, when it names a real moment in the zone (not a skipped spring-forward hour). */
export function parseTypedTimestamp(text: string, timeZone: string): string | null {
  const match = TYPED.exec(text.trim());
  if (!match) return null;
  const timestamp = `${match[1]} ${match[2]}:${match[3]}:${match[4] ?? '00'}`;
  return parseTimestamp(timestamp, timeZone) ? timestamp : null;
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
  const time = value.slice(11) || DEFAULT_TIME;
  const zone = zoneLabel(timeZone, value);
  return (
    <DateInput
      ref={inputRef}
      label={label}
      description={
        <>
          {description && `${description} `}
          <Text span inherit fw={600} c="indigo.8">
            {zone}
          </Text>
        </>
      }
      withAsterisk={withAsterisk}
      placeholder="YYYY-MM-DD HH:MM"
      value={value || null}
      withTime
      valueFormat={(date) => date.slice(0, 16)}
      dateParser={(text) => parseTypedTimestamp(text, timeZone)}
      minDate={minDate}
      // Picking a day in the calendar keeps the time already typed.
      onChange={(picked) => {
        const next = picked === null ? '' : DATE_ONLY.test(picked) ? `${picked} ${time}` : picked.slice(0, 19);
        onChange(next);
        onEdited?.(next);
      }}
      onBlur={onBlur}
      fixOnBlur
      readOnly={readOnly}
      clearable={clearable}
      clearButtonProps={{ 'aria-label': `Clear ${label}` }}
      error={error}
      leftSection={<IconCalendar size={16} aria-hidden />}
      autoComplete="off"
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
