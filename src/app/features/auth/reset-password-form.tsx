import { Alert, Button, Checkbox, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconLinkOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { PASSWORD_MIN, PasswordResetConfirmSchema } from '../../../shared/contract';
import { describeError, isApiError } from '../../api/client';
import { PasswordField } from '../../components/password-field';
import { FormError } from '../../components/form-error';
import { applyServerFieldErrors } from '../../lib/server-field-errors';
import { paths } from '../../paths';
import { useConfirmPasswordReset } from './account-mutations';

interface ResetPasswordValues {
  password: string;
  confirm_password: string;
  revoke_api_tokens: boolean;
}

const schema = z
  .object({ password: PasswordResetConfirmSchema.shape.password, confirm_password: z.string(), revoke_api_tokens: z.boolean() })
  .refine((values) => values.confirm_password === values.password, { path: ['confirm_password'], message: 'The two passwords do not match.' });

/** A used, expired or mangled link: say so, and offer the way to a new one. */
export function InvalidResetLink() {
  return (
    <Stack gap="md">
      <Alert color="red" variant="light" icon={<IconLinkOff />} title="This link does not work" role="alert">
        <Text size="sm">A password reset link works once, within an hour of being sent. This one was used already, has expired or was not copied whole.</Text>
      </Alert>
      <Button component={Link} to={paths.forgotPassword.getHref()}>
        Ask for a new link
      </Button>
    </Stack>
  );
}

interface ResetPasswordFormProps {
  /** The secret from the e-mailed link. */
  token: string;
  /** The password is changed: time to sign in with it. */
  onReset: () => void;
}

export function ResetPasswordForm({ token, onReset }: ResetPasswordFormProps) {
  const confirm = useConfirmPasswordReset();
  const [invalidLink, setInvalidLink] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordValues>({ resolver: zodResolver(schema), defaultValues: { password: '', confirm_password: '', revoke_api_tokens: true } });

  const submit = handleSubmit(async ({ password, revoke_api_tokens }) => {
    try {
      await confirm.mutateAsync({ token, password, revoke_api_tokens });
      onReset();
    } catch (error) {
      if (isApiError(error) && error.status === 404) setInvalidLink(true);
      else if (!applyServerFieldErrors(error, ['password'], setError)) setError('root.server', { message: describeError(error) });
    }
  });

  if (!token || invalidLink) return <InvalidResetLink />;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={errors.root?.server?.message} />
        <PasswordField
          label="New password"
          description={`At least ${PASSWORD_MIN} characters.`}
          autoComplete="new-password"
          withAsterisk
          error={errors.password?.message}
          {...register('password')}
        />
        <PasswordField
          label="New password again"
          autoComplete="new-password"
          withAsterisk
          error={errors.confirm_password?.message}
          {...register('confirm_password')}
        />
        <Checkbox
          label="Also revoke my API tokens"
          description="In every team. Keep this on unless you are sure nobody else knew your password."
          {...register('revoke_api_tokens')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth mt="xs">
          Set new password
        </Button>
        <Text size="xs" c="dimmed">
          Everywhere this account is signed in, it is signed out; you then sign in with the new password.
        </Text>
      </Stack>
    </form>
  );
}
