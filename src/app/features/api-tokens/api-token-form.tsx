import { Button, Group, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconPlus } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiTokenInputSchema, type ApiTokenInput } from '../../../shared/contract';
import { applyServerFieldErrors } from '../../lib/server-field-errors';

interface ApiTokenFormProps {
  /** Creates the token; a rejection carrying 422 field errors shows them on the field. */
  onSubmit: (input: ApiTokenInput) => Promise<unknown>;
}

export function ApiTokenForm({ onSubmit }: ApiTokenFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof ApiTokenInputSchema>, unknown, ApiTokenInput>({ resolver: zodResolver(ApiTokenInputSchema), defaultValues: { name: '' } });

  const submit = handleSubmit(async (input) => {
    try {
      await onSubmit(input);
      reset();
    } catch (error) {
      applyServerFieldErrors(error, ['name'], setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-start" gap="sm">
        <TextInput
          label="Token name"
          description="What the token is for, to recognise it later."
          placeholder="e.g. CRM integration"
          autoComplete="off"
          withAsterisk
          error={errors.name?.message}
          style={{ flex: 1, minWidth: 220, maxWidth: 420 }}
          {...register('name')}
        />
        <Button type="submit" loading={isSubmitting} leftSection={<IconPlus size={16} />} mt={46}>
          Create token
        </Button>
      </Group>
    </form>
  );
}
