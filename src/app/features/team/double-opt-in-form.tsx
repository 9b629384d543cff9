import { Stack, Switch } from '@mantine/core';
import { Controller } from 'react-hook-form';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { FormActions } from '../../components/form-actions';
import { useSettingsForm } from './use-settings-form';

const SERVER_FIELDS = { double_opt_in: 'double_opt_in' } as const;

type DoubleOptInValues = { double_opt_in: boolean };

const valuesOf = (settings: Pick<TeamSettings, 'double_opt_in'>): DoubleOptInValues => ({ double_opt_in: settings.double_opt_in });

interface DoubleOptInFormProps {
  settings: Pick<TeamSettings, 'double_opt_in'>;
  /** Saves the setting; a rejection carrying a 422 shows it on the switch. */
  onSubmit: (input: TeamSettingsInput) => Promise<TeamSettings>;
}

/** Double opt-in for keyword sign-ups: recommended, because a YES from the handset proves the number's owner asked. */
export function DoubleOptInForm({ settings, onSubmit }: DoubleOptInFormProps) {
  const {
    control,
    submit,
    cancel,
    formState: { errors, isSubmitting },
  } = useSettingsForm<DoubleOptInValues>({
    initial: valuesOf(settings),
    valuesOf,
    inputOf: (values) => values,
    serverFields: SERVER_FIELDS,
    onSubmit,
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Double opt-in">
      <Stack gap="lg">
        <Controller
          control={control}
          name="double_opt_in"
          render={({ field }) => (
            <Switch
              ref={field.ref}
              name={field.name}
              checked={field.value}
              onChange={(event) => field.onChange(event.currentTarget.checked)}
              onBlur={field.onBlur}
              label="Ask keyword sign-ups to reply YES (recommended)"
              description="Recommended: a YES from the handset proves that the number’s owner, not someone typing it, asked for your texts."
              error={errors.double_opt_in?.message}
            />
          )}
        />
        <FormActions submitLabel="Save double opt-in" submitting={isSubmitting} onCancel={cancel} />
      </Stack>
    </form>
  );
}
