import { NumberInput, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller } from 'react-hook-form';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { FormActions } from '../../components/form-actions';
import { attributionWindowsOf, attributionWindowsSchema, type AttributionWindowsValues } from './attribution-windows';
import { useSettingsForm } from './use-settings-form';

const SERVER_FIELDS = { click_window_days: 'click_window_days', view_window_hours: 'view_window_hours' } as const;

const FIELDS = [
  {
    name: 'click_window_days',
    label: 'Click window',
    description: 'An order is credited to the last human click on a tracked link within this many days before it. 0 turns it off.',
    unit: 'days',
    max: 90,
  },
  {
    name: 'view_window_hours',
    label: 'View window',
    description: 'Failing a click, an order is credited to the last campaign message delivered within this many hours before it. 0 turns it off.',
    unit: 'hours',
    max: 720,
  },
] as const;

interface AttributionWindowsFormProps {
  settings: Pick<TeamSettings, 'click_window_days' | 'view_window_hours'>;
  /** Saves the two windows; a rejection carrying a 422 shows it on the field it names. */
  onSubmit: (input: TeamSettingsInput) => Promise<TeamSettings>;
}

/** The windows within which an order (a conversion) is credited to a campaign. */
export function AttributionWindowsForm({ settings, onSubmit }: AttributionWindowsFormProps) {
  const {
    control,
    submit,
    cancel,
    formState: { errors, isSubmitting },
  } = useSettingsForm<AttributionWindowsValues>({
    resolver: zodResolver(attributionWindowsSchema),
    initial: attributionWindowsOf(settings),
    valuesOf: attributionWindowsOf,
    inputOf: (values) => values,
    serverFields: SERVER_FIELDS,
    onSubmit,
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Revenue attribution">
      <Stack gap="lg">
        {FIELDS.map((spec) => (
          <Controller
            key={spec.name}
            control={control}
            name={spec.name}
            render={({ field }) => (
              <NumberInput
                ref={field.ref}
                label={spec.label}
                description={spec.description}
                value={field.value}
                onChange={(value) => field.onChange(typeof value === 'number' ? value : Number.NaN)}
                onBlur={field.onBlur}
                name={field.name}
                withAsterisk
                allowDecimal={false}
                allowNegative={false}
                min={0}
                max={spec.max}
                rightSection={spec.unit}
                rightSectionWidth={64}
                rightSectionPointerEvents="none"
                error={errors[spec.name]?.message}
                maw={320}
              />
            )}
          />
        ))}
        <FormActions submitLabel="Save attribution windows" submitting={isSubmitting} onCancel={cancel} />
      </Stack>
    </form>
  );
}
