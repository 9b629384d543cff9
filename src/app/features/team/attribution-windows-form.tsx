import { Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { FormActions } from '../../components/form-actions';
import { attributionWindowsOf, attributionWindowsSchema, type AttributionWindowsValues } from './attribution-windows';
import { useSettingsForm } from './use-settings-form';
import { WholeNumberField } from './whole-number-field';

const SERVER_FIELDS = { click_window_days: 'click_window_days', view_window_hours: 'view_window_hours' } as const;

const FIELDS = [
  {
    name: 'click_window_days',
    label: 'Click window',
    description: 'An order is credited to the last human click on a tracked link within this many days before it. 0 turns it off.',
    unit: 'days',
    min: 0,
    max: 90,
  },
  {
    name: 'view_window_hours',
    label: 'View window',
    description: 'Failing a click, an order is credited to the last campaign message delivered within this many hours before it. 0 turns it off.',
    unit: 'hours',
    min: 0,
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
    formState: { isSubmitting },
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
          <WholeNumberField key={spec.name} control={control} spec={spec} rightSectionWidth={64} maw={320} />
        ))}
        <FormActions submitLabel="Save attribution windows" submitting={isSubmitting} onCancel={cancel} />
      </Stack>
    </form>
  );
}
