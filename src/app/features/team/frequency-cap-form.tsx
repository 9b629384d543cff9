import { Group, Stack, Switch } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useWatch } from 'react-hook-form';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { FormActions } from '../../components/form-actions';
import { frequencyCapInput, frequencyCapOf, frequencyCapSchema, type FrequencyCapValues } from './frequency-cap';
import { useSettingsForm } from './use-settings-form';
import { WholeNumberField } from './whole-number-field';

const SERVER_FIELDS = { 'frequency_cap.messages': 'messages', 'frequency_cap.days': 'days', frequency_cap: 'messages' } as const;

const FIELDS = [
  { name: 'messages', label: 'At most', description: 'Marketing messages to one number…', unit: 'messages', min: 1, max: 10_000 },
  { name: 'days', label: 'Within', description: '…in any period of this many days (1 to 90).', unit: 'days', min: 1, max: 90 },
] as const;

interface FrequencyCapFormProps {
  settings: Pick<TeamSettings, 'frequency_cap'>;
  /** Saves the cap (null: off); a rejection carrying a 422 shows it on the field it names. */
  onSubmit: (input: TeamSettingsInput) => Promise<TeamSettings>;
}

/** How many marketing messages one number may get from the team in a sliding window. */
export function FrequencyCapForm({ settings, onSubmit }: FrequencyCapFormProps) {
  const {
    control,
    submit,
    cancel,
    formState: { isSubmitting },
  } = useSettingsForm<FrequencyCapValues>({
    resolver: zodResolver(frequencyCapSchema),
    initial: frequencyCapOf(settings),
    valuesOf: frequencyCapOf,
    inputOf: frequencyCapInput,
    serverFields: SERVER_FIELDS,
    onSubmit,
  });
  const enabled = useWatch({ control, name: 'enabled' });

  return (
    <form onSubmit={submit} noValidate aria-label="Frequency cap">
      <Stack gap="lg">
        <Controller
          control={control}
          name="enabled"
          render={({ field: { value, onChange, ...field } }) => (
            <Switch {...field} checked={value} onChange={(event) => onChange(event.currentTarget.checked)} label="Limit marketing messages per number" />
          )}
        />
        {enabled && (
          <Group align="flex-start" gap="lg">
            {FIELDS.map((spec) => (
              <WholeNumberField key={spec.name} control={control} spec={spec} rightSectionWidth={84} w={240} />
            ))}
          </Group>
        )}
        <FormActions submitLabel="Save frequency cap" submitting={isSubmitting} onCancel={cancel} />
      </Stack>
    </form>
  );
}
