import { Stack } from '@mantine/core';
import { useState } from 'react';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { isApiError } from '../../api/api-error';
import { CountrySelect } from '../../components/country-select';
import { FormActions } from '../../components/form-actions';

interface PhoneNumbersFormProps {
  settings: Pick<TeamSettings, 'default_country'>;
  /** Saves the default country; a rejection carrying a 422 shows it on the field. */
  onSubmit: (input: TeamSettingsInput) => Promise<TeamSettings>;
}

/** The team's default country: the one national numbers are read in (imports, the wizard, search). */
export function PhoneNumbersForm({ settings, onSubmit }: PhoneNumbersFormProps) {
  const [country, setCountry] = useState(settings.default_country);
  const [saved, setSaved] = useState(settings.default_country);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    setError(undefined);
    try {
      const result = await onSubmit({ default_country: country });
      setCountry(result.default_country);
      setSaved(result.default_country);
    } catch (failure) {
      if (isApiError(failure)) setError(failure.fieldErrors.default_country?.join(' '));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Phone numbers">
      <Stack gap="lg">
        <CountrySelect
          label="Default country"
          description="National numbers (without +44, +49…) are read as numbers of this country. An import can choose another."
          value={country}
          onChange={setCountry}
          error={error}
          withAsterisk
          w={{ base: '100%', xs: 360 }}
        />
        <FormActions submitLabel="Save default country" submitting={submitting} onCancel={country !== saved ? () => setCountry(saved) : undefined} />
      </Stack>
    </form>
  );
}
