import { Button, Group, Select, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconSend } from '@tabler/icons-react';
import { Controller, useForm } from 'react-hook-form';
import { InvitationInputSchema, type InvitationInput } from '../../../shared/contract';
import { applyServerFieldErrors } from '../../lib/server-field-errors';
import { isRole, ROLE_DESCRIPTIONS, ROLE_OPTIONS } from './member-roles';

const DEFAULTS: InvitationInput = { email: '', role: 'editor' };

interface InvitationFormProps {
  /** Sends the invitation; a rejection carrying 422 field errors (e.g. already a member) shows them on the fields. */
  onSubmit: (input: InvitationInput) => Promise<unknown>;
}

export function InvitationForm({ onSubmit }: InvitationFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<InvitationInput>({ resolver: zodResolver(InvitationInputSchema), defaultValues: DEFAULTS });

  const submit = handleSubmit(async (input) => {
    try {
      await onSubmit(input);
      reset();
    } catch (error) {
      applyServerFieldErrors(error, ['email', 'role'], setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Invite someone">
      <Group align="flex-start" gap="md">
        <TextInput
          label="E-mail"
          description="Where the invitation is sent."
          type="email"
          placeholder="name@example.com"
          autoComplete="off"
          withAsterisk
          error={errors.email?.message}
          style={{ flex: '1 1 240px', maxWidth: 420 }}
          {...register('email')}
        />
        <Controller
          control={control}
          name="role"
          render={({ field }) => (
            <Select
              label="Role"
              description={ROLE_DESCRIPTIONS[field.value]}
              data={ROLE_OPTIONS}
              value={field.value}
              onChange={(value) => isRole(value) && field.onChange(value)}
              onBlur={field.onBlur}
              ref={field.ref}
              allowDeselect={false}
              error={errors.role?.message}
              style={{ flex: '0 1 260px' }}
            />
          )}
        />
        <Button type="submit" loading={isSubmitting} leftSection={<IconSend size={16} />} mt={{ base: 0, xs: 46 }}>
          Send invitation
        </Button>
      </Group>
    </form>
  );
}
