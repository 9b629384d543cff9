import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { LoginRequestSchema, type LoginRequest } from '../../../shared/contract';
import { describeError } from '../../api/client';
import { FormError } from '../../components/form-error';
import { applyServerFieldErrors } from '../../lib/server-field-errors';
import { paths } from '../../paths';
import { useSignInWithPassword } from './session-mutations';

export function PasswordSignInForm() {
  const signIn = useSignInWithPassword();
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<LoginRequest>({ resolver: zodResolver(LoginRequestSchema), defaultValues: { email: '', password: '' } });

  // The forgotten-password page starts with the address already typed here.
  const email = useWatch({ control, name: 'email' });

  const submit = handleSubmit(async (credentials) => {
    try {
      await signIn.mutateAsync(credentials);
    } catch (error) {
      if (!applyServerFieldErrors(error, ['email', 'password'], setError)) {
        setError('root.server', { message: describeError(error) });
      }
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={errors.root?.server?.message} />
        <TextInput label="E-mail" type="email" autoComplete="username" withAsterisk error={errors.email?.message} {...register('email')} />
        <PasswordInput label="Password" autoComplete="current-password" withAsterisk error={errors.password?.message} {...register('password')} />
        <Group justify="flex-end" mt={-8}>
          <Anchor component={Link} to={paths.forgotPassword.getHref()} state={{ email: email.trim() }} size="sm">
            Forgot your password?
          </Anchor>
        </Group>
        <Button type="submit" loading={isSubmitting} fullWidth mt="xs">
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
