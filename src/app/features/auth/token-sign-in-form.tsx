import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { describeError, isApiError } from '../../api/client';
import { FormError } from '../../components/form-error';
import { currentOrigin } from '../../lib/session';
import { useSignInWithToken } from './session-mutations';

const TokenSignInSchema = z.object({
  baseUrl: z.url({ protocol: /^https?$/, error: 'Enter the address of the service, e.g. https://herald.example.com.' }),
  token: z.string().trim().min(1, 'Enter an API token.'),
});
type TokenSignInValues = z.infer<typeof TokenSignInSchema>;

export function TokenSignInForm() {
  const signIn = useSignInWithToken();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TokenSignInValues>({
    resolver: zodResolver(TokenSignInSchema),
    defaultValues: { baseUrl: currentOrigin(), token: '' },
  });

  const submit = handleSubmit(async (values) => {
    try {
      await signIn.mutateAsync(values);
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        setError('token', { message: 'The service did not accept this token.' }, { shouldFocus: true });
      } else if (isApiError(error) && (error.status === 0 || error.status === 404)) {
        setError('baseUrl', { message: 'No service speaking the Herald API answered at this address.' }, { shouldFocus: true });
      } else {
        setError('root.server', { message: describeError(error) });
      }
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormError message={errors.root?.server?.message} />
        <TextInput
          label="Service address"
          description="Where the service runs; its API is under /api/2.0."
          type="url"
          autoComplete="url"
          withAsterisk
          error={errors.baseUrl?.message}
          {...register('baseUrl')}
        />
        <PasswordInput label="API token" autoComplete="off" withAsterisk error={errors.token?.message} {...register('token')} />
        <Button type="submit" loading={isSubmitting} fullWidth mt="xs">
          Sign in with token
        </Button>
      </Stack>
    </form>
  );
}
