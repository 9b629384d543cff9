import { Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { ContactGroupInputSchema, type ContactGroupInput } from '../../../shared/contract';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { applyServerErrors } from '../../lib/server-field-errors';

const ContactGroupFormSchema = z.object({
  name: ContactGroupInputSchema.shape.name,
  description: z.string().max(1000, 'The description may not be greater than 1000 characters.'),
  headers: z.array(z.string()),
});
type ContactGroupFormValues = z.infer<typeof ContactGroupFormSchema>;

interface ContactGroupFormProps {
  defaultValues?: { name: string; description: string | null; headers: string[] };
  submitLabel: string;
  /** Saves the group; a rejection carrying 422 field errors shows them on the fields. */
  onSubmit: (input: ContactGroupInput) => Promise<unknown>;
  onCancel?: () => void;
}

const EMPTY = { name: '', description: null, headers: [] };

export function ContactGroupForm({ defaultValues = EMPTY, submitLabel, onSubmit, onCancel }: ContactGroupFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<ContactGroupFormValues>({
    resolver: zodResolver(ContactGroupFormSchema),
    defaultValues: { ...defaultValues, description: defaultValues.description ?? '' },
  });

  const submit = handleSubmit(async (values) => {
    // The shared schema checks each field name (allowed characters, not phone_number, distinct).
    const input = { name: values.name, description: values.description.trim() || null, headers: values.headers };
    const checked = ContactGroupInputSchema.safeParse(input);
    if (!checked.success) {
      const issue = checked.error.issues.find((i) => i.path[0] === 'headers');
      if (issue) {
        setError('headers', { type: 'validate', message: issue.message });
        return;
      }
    }
    try {
      await onSubmit(input);
    } catch (error) {
      applyServerErrors(error, ['name', 'description', 'headers'], setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          placeholder="e.g. Newsletter"
          autoComplete="off"
          withAsterisk
          data-autofocus
          error={errors.name?.message}
          {...register('name')}
        />
        <Textarea
          label="Description"
          placeholder="Who is in this group"
          autosize
          minRows={2}
          error={errors.description?.message}
          {...register('description')}
        />
        <Controller
          control={control}
          name="headers"
          render={({ field }) => (
            <TagsInput
              label="Custom fields"
              description="One value per contact, used as {{name}} in a message. Press Enter after each name."
              placeholder="e.g. first_name"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.headers?.message ?? errors.headers?.root?.message}
              clearable
            />
          )}
        />
        <FormError message={errors.root?.message} />
        <FormActions submitLabel={submitLabel} submitting={isSubmitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
