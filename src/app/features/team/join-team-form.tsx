import { Button, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { PASSWORD_MIN } from '../../../shared/contract';
import { describeError } from '../../api/api-error';
import { FormError } from '../../components/form-error';
import { applyServerFieldErrors } from '../../lib/server-field-errors';
import { PasswordField } from '../../components/password-field';

const joinTeamSchema = z
  .object({
    name: z.string().trim().min(1, 'Enter your name.').max(100, 'The name may not be longer than 100 characters.'),
    password: z
      .string()
      .min(PASSWORD_MIN, `The password must be at least ${PASSWORD_MIN} characters.`)
      .max(1024, 'The password may not be longer than 1024 characters.'),
    password_confirmation: z.string(),
  })
  .refine((values) => values.password === values.password_confirmation, {
    path: ['password_confirmation'],
    message: 'The passwords do not match.',
  });

type JoinTeamValues = z.infer<typeof joinTeamSchema>;

export interface NewAccount {
  name: string;
  password: string;
}

interface JoinTeamFormProps {
  /** The invited address: the account's, shown for the person (and their password manager) to see. */
  email: string;
  /** Accepts the invitation; a rejection carrying 422 field errors shows them on the fields, any other above them. */
  onSubmit: (account: NewAccount) => Promise<unknown>;
}

/** A new person's account: a name and a password, typed twice. */
export function JoinTeamForm({ email, onSubmit }: JoinTeamFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<JoinTeamValues>({ resolver: zodResolver(joinTeamSchema), defaultValues: { name: '', password: '', password_confirmation: '' } });

  const submit = handleSubmit(async ({ name, password }) => {
    try {
      await onSubmit({ name, password });
    } catch (error) {
      if (!applyServerFieldErrors(error, ['name', 'password'], setError)) setError('root.server', { message: describeError(error) });
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Create your account">
      <Stack gap="md">
        <FormError message={errors.root?.server?.message} />
        <TextInput label="E-mail" type="email" value={email} readOnly autoComplete="username" description="You sign in with this address." />
        <TextInput label="Your name" autoComplete="name" description="Shown to your team." withAsterisk error={errors.name?.message} {...register('name')} />
        <PasswordField
          label="Password"
          autoComplete="new-password"
          description={`At least ${PASSWORD_MIN} characters.`}
          withAsterisk
          error={errors.password?.message}
          {...register('password')}
        />
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          withAsterisk
          error={errors.password_confirmation?.message}
          {...register('password_confirmation')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth mt="xs">
          Create account and join
        </Button>
      </Stack>
    </form>
  );
}
