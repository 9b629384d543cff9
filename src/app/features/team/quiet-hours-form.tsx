import { Checkbox, Group, Select, Stack, Switch, Text } from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { FormActions } from '../../components/form-actions';
import {
  describeQuietHours,
  quietHoursInput,
  quietHoursOf,
  quietHoursSchema,
  WEEKDAY_LABELS,
  WEEKDAYS,
  type QuietHoursValues,
  type Weekday,
} from './quiet-hours';
import { timeZoneOptions } from './time-zones';
import { useSettingsForm } from './use-settings-form';

const SERVER_FIELDS = {
  time_zone: 'time_zone',
  quiet_hours: 'start',
  'quiet_hours.start': 'start',
  'quiet_hours.end': 'end',
  'quiet_hours.days': 'days',
} as const;

interface QuietHoursFormProps {
  settings: Pick<TeamSettings, 'quiet_hours' | 'time_zone'>;
  /** Saves the quiet hours and the time zone; a rejection carrying a 422 shows it on the field it names. */
  onSubmit: (input: TeamSettingsInput) => Promise<TeamSettings>;
}

export function QuietHoursForm({ settings, onSubmit }: QuietHoursFormProps) {
  const {
    register,
    control,
    submit,
    cancel,
    formState: { errors, isSubmitting },
  } = useSettingsForm<QuietHoursValues>({
    resolver: zodResolver(quietHoursSchema),
    initial: quietHoursOf(settings),
    valuesOf: quietHoursOf,
    inputOf: quietHoursInput,
    serverFields: SERVER_FIELDS,
    onSubmit,
  });
  const [enabled, start, end, days] = useWatch({ control, name: ['enabled', 'start', 'end', 'days'] });
  const zones = useMemo(() => timeZoneOptions(settings.time_zone), [settings.time_zone]);

  return (
    <form onSubmit={submit} noValidate aria-label="Quiet hours">
      <Stack gap="lg">
        <Controller
          control={control}
          name="enabled"
          render={({ field: { value, onChange, ...field } }) => (
            <Switch {...field} checked={value} onChange={(event) => onChange(event.currentTarget.checked)} label="Keep quiet hours" />
          )}
        />
        {enabled && (
          <>
            <Group align="flex-start" gap="md">
              <TimeInput label="Quiet from" withAsterisk error={errors.start?.message} w={140} {...register('start')} />
              <TimeInput
                label="Until"
                description={end && start && end <= start ? 'The next day' : undefined}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                withAsterisk
                error={errors.end?.message}
                w={140}
                {...register('end')}
              />
            </Group>
            <Controller
              control={control}
              name="days"
              render={({ field }) => (
                <Checkbox.Group
                  label="On these days"
                  description="The days on which a quiet period begins: a Friday night that runs into Saturday belongs to Friday."
                  value={field.value}
                  onChange={(value) => field.onChange(WEEKDAYS.filter((day) => value.includes(day)))}
                  error={errors.days?.message}
                  withAsterisk
                >
                  <Group gap="md" mt="xs">
                    {WEEKDAYS.map((day, index) => (
                      <Checkbox
                        key={day}
                        value={day}
                        label={WEEKDAY_LABELS[day].short}
                        aria-label={WEEKDAY_LABELS[day].long}
                        ref={index === 0 ? field.ref : undefined}
                      />
                    ))}
                  </Group>
                </Checkbox.Group>
              )}
            />
            <Text size="sm" aria-live="polite">
              {QuietHoursSummary({ start, end, days })}
            </Text>
          </>
        )}
        <Controller
          control={control}
          name="time_zone"
          render={({ field }) => (
            <Select
              ref={field.ref}
              name={field.name}
              onBlur={field.onBlur}
              label="Team time zone"
              description="Used for the quiet hours of numbers whose country spans several time zones, such as the United States."
              data={zones}
              value={field.value}
              onChange={(value) => value && field.onChange(value)}
              searchable
              nothingFoundMessage="No time zone by that name"
              allowDeselect={false}
              withAsterisk
              error={errors.time_zone?.message}
              maw={420}
              // Some 400 options: rendered when the list opens, not kept (hidden) in the page meanwhile.
              comboboxProps={{ keepMounted: false }}
            />
          )}
        />
        <FormActions submitLabel="Save quiet hours" submitting={isSubmitting} onCancel={cancel} />
      </Stack>
    </form>
  );
}

/** The period being edited in one sentence, once it is complete enough to say. */
function QuietHoursSummary({ start, end, days }: { start: string; end: string; days: Weekday[] }) {
  if (!start || !end || start === end || days.length === 0) return '';
  return describeQuietHours({ start, end, days });
}
