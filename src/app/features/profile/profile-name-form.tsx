import { Button, Group, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { ProfileInputSchema, type ProfileInput } from '../../../shared/contract';
import { describeError } from '../../api/client';
import { FormError } from '../../components/form-error';
import { applyServerFieldErrors } from '../../lib/server-field-errors';

interface ProfileNameFormProps {
  /** The name saved now. */
  name: string;
  /** Saves the name; a rejection carrying 422 field errors shows them on the field. */
  onSubmit: (input: ProfileInput) => Promise<unknown>;
}

/** The name the team sees (in the header, on approvals, in member lists). */
export function ProfileNameForm({ name, onSubmit }: ProfileNameFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ProfileInput>({ resolver: zodResolver(ProfileInputSchema), defaultValues: { name } });

  const submit = handleSubmit(async (input) => {
    try {
      await onSubmit(input);
      // What was saved is the form's new starting point.
      reset(input);
    } catch (error) {
      if (!applyServerFieldErrors(error, ['name'], setError)) setError('root.server', { message: describeError(error) });
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Your name">
      <Stack gap="md" maw={480}>
        <FormError message={errors.root?.server?.message} />
        <TextInput
          label="Name"
          description="Shown to your team: in the header, on approvals and in the member list."
          autoComplete="name"
          withAsterisk
          error={errors.name?.message}
          {...register('name')}
        />
        <Group>
          <Button type="submit" loading={isSubmitting}>
            Save name
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
