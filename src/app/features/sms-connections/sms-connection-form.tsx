import { Button, Fieldset, NativeSelect, NumberInput, Stack, Switch, TagsInput, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm, useWatch, type FieldPath } from 'react-hook-form';
import type { SmsConnection } from '../../api/gen/types.gen';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { PasswordField } from '../../components/password-field';
import { applyServerErrors } from '../../lib/server-field-errors';
import { formValuesOf, smsConnectionFormSchema, type SmsConnectionFormValues } from './sms-connection-form-schema';
import {
  BASE_URL_NOTES,
  CREDENTIAL_FIELDS,
  DEFAULT_BASE_URLS,
  PROVIDER_LABELS,
  SMS_CONNECTION_CREDENTIALS,
  SMS_CONNECTION_PROVIDERS,
  type SmsConnectionProvider,
} from './sms-connection-providers';

interface SmsConnectionFormProps {
  /** The connection being edited (its provider is fixed); absent for a new one. */
  connection?: SmsConnection;
  submitLabel: string;
  /** Saves the connection; a rejection carrying 422 field errors shows them on the fields. */
  onSubmit: (values: SmsConnectionFormValues) => Promise<unknown>;
  onCancel?: () => void;
}

/**
 * A connection's form: the provider first, then that provider's credential fields (each saying where
 * its value is in the provider's console), the senders, the pace, and the API host under Advanced.
 * On an edit no credential is shown: each field shows the saved value's hint and, left empty, keeps it.
 */
export function SmsConnectionForm({ connection, submitLabel, onSubmit, onCancel }: SmsConnectionFormProps) {
  const mode = connection ? 'edit' : 'create';
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<SmsConnectionFormValues>({ resolver: zodResolver(smsConnectionFormSchema(mode)), defaultValues: formValuesOf(connection) });
  const provider = useWatch({ control, name: 'provider' });
  // An edit of a connection pointed at another host opens with that host shown.
  const [advanced, setAdvanced] = useState(Boolean(connection && formValuesOf(connection).base_url));
  // A base URL the service refused must be seen: its field shows.
  const advancedOpen = advanced || Boolean(errors.base_url);

  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      const credentialFields = provider ? SMS_CONNECTION_CREDENTIALS[provider].map((name) => `credentials.${name}` as FieldPath<SmsConnectionFormValues>) : [];
      applyServerErrors(error, ['provider', 'name', 'base_url', ...credentialFields, 'senders', 'max_per_second', 'enabled'], setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <NativeSelect
          label="Provider"
          description={connection ? 'Fixed once created: make another connection for another provider.' : 'Where your account is; its fields follow.'}
          withAsterisk
          disabled={Boolean(connection)}
          data-autofocus
          error={errors.provider?.message}
          data={[
            ...(connection ? [] : [{ value: '', label: 'Choose a provider' }]),
            ...SMS_CONNECTION_PROVIDERS.map((value) => ({ value, label: PROVIDER_LABELS[value] })),
          ]}
          {...register('provider')}
        />
        <TextInput
          label="Name"
          description="What your team calls this account, e.g. “Twilio UK”."
          autoComplete="off"
          withAsterisk
          error={errors.name?.message}
          {...register('name')}
        />
        {provider && <CredentialFields provider={provider} connection={connection} register={register} errors={errors} />}
        {provider && (
          <>
            <Controller
              control={control}
              name="senders"
              render={({ field }) => (
                <TagsInput
                  label="Senders"
                  description="The numbers (+447700900123) or alphanumeric IDs (Acme) this account may send from. Press Enter after each; the first is the default."
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  error={errors.senders?.message ?? errors.senders?.root?.message ?? errors.senders?.find?.((error) => error)?.message}
                  clearable
                />
              )}
            />
            <Controller
              control={control}
              name="max_per_second"
              render={({ field }) => (
                <NumberInput
                  label="Messages per second"
                  description="At most this many a second through this account, alongside the installation’s SMS_RATE_LIMIT."
                  min={1}
                  max={10_000}
                  allowDecimal={false}
                  value={field.value}
                  onChange={(value) => field.onChange(typeof value === 'number' ? value : Number(value))}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  error={errors.max_per_second?.message}
                  w={{ base: '100%', xs: 360 }}
                />
              )}
            />
            <Controller
              control={control}
              name="enabled"
              render={({ field: { value, onChange, ref, onBlur } }) => (
                <Switch
                  ref={ref}
                  onBlur={onBlur}
                  checked={value}
                  onChange={(event) => onChange(event.currentTarget.checked)}
                  label="Enabled"
                  description="A disabled connection is skipped by every route."
                />
              )}
            />
            {DEFAULT_BASE_URLS[provider] && (
              <Stack gap="xs">
                <Button
                  variant="subtle"
                  size="compact-sm"
                  px={0}
                  w="fit-content"
                  aria-expanded={advancedOpen}
                  aria-controls="sms-connection-advanced"
                  rightSection={advancedOpen ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
                  onClick={() => setAdvanced(!advanced)}
                >
                  Advanced: API host
                </Button>
                <div id="sms-connection-advanced">
                  {advancedOpen && (
                    <TextInput
                      label="Base URL"
                      description={`scheme://host[:port] only; Herald adds the API's path. Empty: ${DEFAULT_BASE_URLS[provider]}. ${BASE_URL_NOTES[provider] ?? ''}`.trim()}
                      placeholder={DEFAULT_BASE_URLS[provider]}
                      autoComplete="off"
                      error={errors.base_url?.message}
                      {...register('base_url')}
                    />
                  )}
                </div>
              </Stack>
            )}
          </>
        )}
        <FormError message={errors.root?.message} />
        <FormActions submitLabel={submitLabel} submitting={isSubmitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}

interface CredentialFieldsProps {
  provider: SmsConnectionProvider;
  connection?: SmsConnection;
  register: ReturnType<typeof useForm<SmsConnectionFormValues>>['register'];
  errors: ReturnType<typeof useForm<SmsConnectionFormValues>>['formState']['errors'];
}

function CredentialFields({ provider, connection, register, errors }: CredentialFieldsProps) {
  const fields = CREDENTIAL_FIELDS[provider];
  if (fields.length === 0) return null;
  return (
    <Fieldset legend={`${PROVIDER_LABELS[provider]} credentials`} variant="filled">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {connection
            ? 'Saved values are never shown. Leave a field empty to keep its saved value; type a new one to replace it.'
            : 'Kept encrypted; never shown again once saved.'}
        </Text>
        {fields.map((field) => {
          const hint = connection?.credentials[field.name];
          const props = {
            label: field.label,
            description: field.help,
            placeholder: hint ? `${hint} (saved)` : field.placeholder,
            withAsterisk: !connection,
            autoComplete: field.secret ? 'new-password' : 'off',
            error: errors.credentials?.[field.name]?.message,
            ...register(`credentials.${field.name}`),
          };
          const key = `${provider}.${field.name}`;
          return field.secret ? <PasswordField key={key} {...props} /> : <TextInput key={key} {...props} spellCheck={false} />;
        })}
      </Stack>
    </Fieldset>
  );
}
