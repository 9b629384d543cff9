import { Button, Group, Radio, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiTokenInputSchema, type ApiTokenInput } from '../../../shared/contract';
import { parseTimestamp } from '../../../shared/time/local-timestamps';
import { ZonedDateTimeInput } from '../../components/zoned-date-time-field';
import { applyServerFieldErrors } from '../../lib/server-field-errors';

export const TOKEN_SCOPES = [
  { value: 'full', label: 'Full access', description: 'Does whatever your role lets you do.' },
  { value: 'read_only', label: 'Read-only', description: 'Reads only: every change is refused, whatever your role.' },
] as const;

interface ApiTokenFormValues {
  name: string;
  scope: ApiTokenInput['scope'];
  /** `YYYY-MM-DD HH:MM:SS` in the service's zone, or '' for a token that does not expire. */
  expires_at: string;
}

const DEFAULTS: ApiTokenFormValues = { name: '', scope: 'full', expires_at: '' };

function tokenFormSchema(timeZone: string) {
  return z.object({
    name: ApiTokenInputSchema.shape.name,
    scope: z.enum(['full', 'read_only']),
    // The service refuses a past expiry too (422); saying so here spares the round trip.
    expires_at: z.string().refine((value) => {
      if (!value) return true;
      const moment = parseTimestamp(value, timeZone);
      return moment !== null && moment.getTime() > Date.now();
    }, 'The expiry must be in the future.'),
  });
}

interface ApiTokenFormProps {
  /** The service's zone (APP_TIMEZONE): the expiry is read there. */
  timeZone: string;
  /** The team the token will act in, for ever: the one the dashboard is in now. */
  teamName: string;
  /** Creates the token; a rejection carrying 422 field errors shows them on the fields. */
  onSubmit: (input: ApiTokenInput) => Promise<unknown>;
}

export function ApiTokenForm({ timeZone, teamName, onSubmit }: ApiTokenFormProps) {
  const resolver = useMemo(() => zodResolver(tokenFormSchema(timeZone)), [timeZone]);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<ApiTokenFormValues>({ resolver, defaultValues: DEFAULTS });

  const submit = handleSubmit(async ({ name, scope, expires_at }) => {
    try {
      await onSubmit({ name, scope, ...(expires_at && { expires_at }) });
      reset();
    } catch (error) {
      applyServerFieldErrors(error, ['name', 'scope', 'expires_at'], setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg" verticalSpacing="md">
          <TextInput
            label="Token name"
            description={`What the token is for. It acts in ${teamName}.`}
            placeholder="e.g. CRM integration"
            autoComplete="off"
            withAsterisk
            error={errors.name?.message}
            {...register('name')}
          />
          <Controller
            control={control}
            name="scope"
            render={({ field }) => (
              <Radio.Group
                label="Access"
                description={TOKEN_SCOPES.find((scope) => scope.value === field.value)?.description}
                value={field.value}
                onChange={(value) => field.onChange(value as ApiTokenFormValues['scope'])}
                error={errors.scope?.message}
              >
                <Group gap="lg" mt={8}>
                  {TOKEN_SCOPES.map((scope) => (
                    <Radio key={scope.value} value={scope.value} label={scope.label} />
                  ))}
                </Group>
              </Radio.Group>
            )}
          />
          <ZonedDateTimeInput
            control={control}
            name="expires_at"
            label="Expires"
            description="Optional; empty for never."
            timeZone={timeZone}
            clearable
            error={errors.expires_at?.message}
          />
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={isSubmitting} leftSection={<IconPlus size={16} />}>
            Create token
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
