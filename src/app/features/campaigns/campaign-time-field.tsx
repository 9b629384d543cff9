import { Text } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import type { Ref } from 'react';
import { useController, type Control } from 'react-hook-form';
import type { CampaignInput } from '../../../shared/contract';
import { parseTypedTimestamp } from '../../components/zoned-date-time-field';
import { zoneLabel } from '../../lib/service-zone';
import type { CampaignFormValues } from './campaign-form-values';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DEFAULT_TIME = '09:00:00';

type TimeFieldName = 'scheduled_send_date' | 'expiry_date' | 'scheduled_finish_date';

interface CampaignTimeInputProps {
  control: Control<CampaignFormValues, unknown, CampaignInput>;
  name: TimeFieldName;
  label: string;
  description?: string;
  timeZone: string;
  /** `YYYY-MM-DD`: days before it cannot be picked or typed (a campaign is not planned in the past). */
  minDate?: string;
  error?: string;
  readOnly?: boolean;
  withAsterisk?: boolean;
  /** Called with the new value after a person changed the field (not when the form moves it). */
  onEdited?: (value: string) => void;
}

/**
 * A campaign time in the service's zone, typed (`YYYY-MM-DD HH:MM`) or its day picked in the
 * calendar (keeping the typed time). The same as the shared ZonedDateTimeField, plus `minDate`, and
 * `onEdited` so the form can tell a person's change from its own (expiry follows the send time until
 * it is edited).
 */
export function CampaignTimeInput({ control, name, ...props }: CampaignTimeInputProps) {
  const { field: input } = useController({ control, name });
  return <CampaignTimeFieldView {...props} value={input.value} onChange={input.onChange} onBlur={input.onBlur} inputRef={input.ref} />;
}

interface ViewProps extends Omit<CampaignTimeInputProps, 'control' | 'name'> {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  inputRef: Ref<HTMLInputElement>;
}

function CampaignTimeFieldView({
  value,
  onChange,
  onBlur,
  inputRef,
  label,
  description,
  timeZone,
  minDate,
  error,
  readOnly,
  withAsterisk,
  onEdited,
}: ViewProps) {
  const time = value.slice(11) || DEFAULT_TIME;
  const change = (next: string) => {
    onChange(next);
    onEdited?.(next);
  };
  return (
    <DateInput
      ref={inputRef}
      label={label}
      description={
        <>
          {description && `${description} `}
          <Text span inherit fw={600} c="indigo.8">
            {zoneLabel(timeZone, value)}
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
      onChange={(next) => change(next === null ? '' : DATE_ONLY.test(next) ? `${next} ${time}` : next.slice(0, 19))}
      onBlur={onBlur}
      fixOnBlur
      readOnly={readOnly}
      error={error}
      leftSection={<IconCalendar size={16} aria-hidden />}
      autoComplete="off"
    />
  );
}
