import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { PasswordResetRequestSchema, type PasswordResetRequest } from '../../../shared/contract';
import { describeError } from '../../api/client';
import { FormError } from '../../components/form-error';
import { applyServerFieldErrors } from '../../lib/server-field-errors';
import { useRequestPasswordReset } from './account-mutations';

interface ForgotPasswordFormProps {
  /** The address typed on the sign-in page, if any. */
  defaultEmail?: string;
}

/**
 * Asks for a reset link. The answer is the same whether or not the address has an account (the
 * service's 202), so the page never tells who has one.
 */
export function ForgotPasswordForm({ defaultEmail = '' }: ForgotPasswordFormProps) {
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string>();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PasswordResetRequest>({ resolver: zodResolver(PasswordResetRequestSchema), defaultValues: { email: defaultEmail } });

  const submit = handleSubmit(async (input) => {
    try {
      await request.mutateAsync(input);
      setSentTo(input.email);
    } catch (error) {
      if (!applyServerFieldErrors(error, ['email'], setError)) setError('root.server', { message: describeError(error) });
    }
  });

  if (sentTo) {
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<IconMailForward />} title="Check your inbox" role="status">
          <Text size="sm">If an account uses this address, we have sent a link to {sentTo} to choose a new password. The link works once, within an hour.</Text>
          <Text size="sm" mt="xs">
            Nothing after a few minutes? Look in your spam folder, or check the address and ask again.
          </Text>
        </Alert>
        <Button variant="default" onClick={() => setSentTo(undefined)}>
          Ask again
        </Button>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={errors.root?.server?.message} />
        <TextInput
          label="E-mail"
          description="The address you sign in with."
          type="email"
          autoComplete="username"
          withAsterisk
          error={errors.email?.message}
          {...register('email')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth mt="xs">
          Send me a link
        </Button>
      </Stack>
    </form>
  );
}
