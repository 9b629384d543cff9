import { Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ProfileInputSchema, type ProfileInput } from '../../../shared/contract';
import type { CurrentUser } from '../../api/gen/types.gen';
import { describeError } from '../../api/client';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { applyServerFieldErrors } from '../../lib/server-field-errors';

// The form always holds a number, '' when there is none (which clears it).
const schema = ProfileInputSchema.required({ phone_number: true });
type ProfileValues = z.input<typeof schema>;

/** The form's values from the saved user: the number as E.164 with its +, or empty. */
function valuesOf({ name, phone_number }: Pick<CurrentUser, 'name' | 'phone_number'>): ProfileValues {
  return { name, phone_number: phone_number ? `+${phone_number}` : '' };
}

interface ProfileFormProps {
  user: Pick<CurrentUser, 'name' | 'phone_number'>;
  /** Saves the name and the number; a rejection carrying 422 field errors shows them on the fields. */
  onSubmit: (input: ProfileInput) => Promise<Pick<CurrentUser, 'name' | 'phone_number'>>;
}

/** The name the team sees (in the header, on approvals, in member lists) and the member's own number for test sends. */
export function ProfileForm({ user, onSubmit }: ProfileFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ProfileValues, unknown, z.output<typeof schema>>({ resolver: zodResolver(schema), defaultValues: valuesOf(user) });

  const submit = handleSubmit(async (input) => {
    try {
      // '' clears the number; what was saved (the number as the service read it) is the form's new starting point.
      reset(valuesOf(await onSubmit({ name: input.name, phone_number: input.phone_number.trim() })));
    } catch (error) {
      if (!applyServerFieldErrors(error, ['name', 'phone_number'], setError)) setError('root.server', { message: describeError(error) });
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Your profile">
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
        <TextInput
          type="tel"
          label="Your phone number"
          description="Where test sends go unless you choose other numbers. With its country code (+44 7700 900123), or a national number of the service’s country. Leave empty to remove it."
          placeholder="+44 7700 900123"
          autoComplete="tel"
          error={errors.phone_number?.message}
          {...register('phone_number')}
        />
        <FormActions submitLabel="Save profile" submitting={isSubmitting} onCancel={isDirty ? () => reset() : undefined} />
      </Stack>
    </form>
  );
}
