import { Alert, Button, Checkbox, Group, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { PASSWORD_MIN, PasswordChangeSchema, type PasswordChange } from '../../../shared/contract';
import { describeError } from '../../api/client';
import { PasswordField } from '../../components/password-field';
import { FormError } from '../../components/form-error';
import { applyServerFieldErrors } from '../../lib/server-field-errors';

interface ChangePasswordValues extends PasswordChange {
  confirm_password: string;
}

const DEFAULTS: ChangePasswordValues = { current_password: '', new_password: '', confirm_password: '', revoke_api_tokens: false };

// The service's rules, and the new password typed twice: a typo would otherwise lock the user out.
const schema = PasswordChangeSchema.extend({ confirm_password: z.string() }).refine((values) => values.confirm_password === values.new_password, {
  path: ['confirm_password'],
  message: 'The two new passwords do not match.',
});

interface ChangePasswordFormProps {
  /** Changes the password; a rejection carrying 422 field errors shows them on the fields. */
  onSubmit: (input: PasswordChange) => Promise<unknown>;
}

export function ChangePasswordForm({ onSubmit }: ChangePasswordFormProps) {
  const [changed, setChanged] = useState<{ tokensRevoked: boolean } | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordValues>({ resolver: zodResolver(schema), defaultValues: DEFAULTS });

  const submit = handleSubmit(async ({ current_password, new_password, revoke_api_tokens }) => {
    setChanged(null);
    try {
      await onSubmit({ current_password, new_password, revoke_api_tokens: revoke_api_tokens === true });
      reset(DEFAULTS);
      setChanged({ tokensRevoked: revoke_api_tokens === true });
    } catch (error) {
      if (!applyServerFieldErrors(error, ['current_password', 'new_password'], setError)) {
        setError('root.server', { message: describeError(error) });
      }
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Change your password">
      <Stack gap="md" maw={480}>
        <FormError message={errors.root?.server?.message} />
        {changed && (
          <Alert color="teal" variant="light" icon={<IconCircleCheck />} title="Your password was changed" role="status">
            Your other dashboard sessions were signed out; this one stays signed in.{' '}
            {changed.tokensRevoked ? 'Your API tokens were revoked: make new ones where you need them.' : 'Your API tokens keep working.'}
          </Alert>
        )}
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          withAsterisk
          error={errors.current_password?.message}
          {...register('current_password')}
        />
        <PasswordField
          label="New password"
          description={`At least ${PASSWORD_MIN} characters.`}
          autoComplete="new-password"
          withAsterisk
          error={errors.new_password?.message}
          {...register('new_password')}
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
          description="In every team. Choose this if someone else may have known your password."
          {...register('revoke_api_tokens')}
        />
        <Group>
          <Button type="submit" loading={isSubmitting}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
