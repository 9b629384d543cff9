import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
import { isApiError } from '../../api/api-error';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import type { ContactInput } from './contact-group-mutations';

const AddContactsFormSchema = z.object({
  rows: z
    .array(
      z.object({
        phone_number: z.string().trim().min(1, 'Enter a phone number.').max(32, 'The phone number may not be greater than 32 characters.'),
        // One value per custom field of the group, in the order of its headers.
        fields: z.array(z.string().max(1000, 'A custom field value may not be greater than 1000 characters.')),
      }),
    )
    .min(1),
});
type AddContactsFormValues = z.infer<typeof AddContactsFormSchema>;

interface AddContactsFormProps {
  /** The group's custom field names: one input each per row. */
  headers: readonly string[];
  /** Adds the contacts; a 422 names rows as `contacts.<index>.<field>`, shown next to the row. */
  onSubmit: (contacts: ContactInput[]) => Promise<unknown>;
  onCancel?: () => void;
}

const ROW_ERROR = /^contacts\.(\d+)(?:\.(phone_number|custom_fields)(?:\.(.+))?)?$/;

export function AddContactsForm({ headers, onSubmit, onCancel }: AddContactsFormProps) {
  const emptyRow = () => ({ phone_number: '', fields: headers.map(() => '') });
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<AddContactsFormValues>({
    resolver: zodResolver(AddContactsFormSchema),
    defaultValues: { rows: [emptyRow()] },
  });
  const { fields: rows, append, remove } = useFieldArray({ control, name: 'rows' });

  const submit = handleSubmit(async ({ rows: values }) => {
    const contacts = values.map((row) => {
      const customFields = Object.fromEntries(headers.map((header, index) => [header, row.fields[index] ?? '']));
      return headers.length ? { phone_number: row.phone_number, custom_fields: customFields } : { phone_number: row.phone_number };
    });
    try {
      await onSubmit(contacts);
    } catch (error) {
      if (!isApiError(error) || error.status !== 422) return;
      // Rows are sent in the order shown, so the service's index is the row's index.
      let shown = false;
      for (const [key, [message]] of Object.entries(error.fieldErrors)) {
        const match = ROW_ERROR.exec(key);
        if (!match || !message) continue;
        const row = Number(match[1]);
        const fieldIndex = match[3] ? headers.indexOf(match[3]) : -1;
        if (fieldIndex >= 0) setError(`rows.${row}.fields.${fieldIndex}`, { type: 'server', message }, { shouldFocus: !shown });
        else setError(`rows.${row}.phone_number`, { type: 'server', message }, { shouldFocus: !shown });
        shown = true;
      }
      if (!shown) setError('root', { type: 'server', message: error.message });
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          International (+44…) or national numbers. A number already in the group has its custom fields replaced.
        </Text>
        {rows.map((row, index) => (
          <Group key={row.id} align="flex-start" gap="xs" wrap="nowrap" role="group" aria-label={`Contact ${index + 1}`}>
            <TextInput
              label={`Phone number ${index + 1}`}
              placeholder="+44 7700 900123"
              autoComplete="off"
              inputMode="tel"
              withAsterisk
              style={{ flex: 2 }}
              data-autofocus={index === 0 || undefined}
              error={errors.rows?.[index]?.phone_number?.message}
              {...register(`rows.${index}.phone_number`)}
            />
            {headers.map((header, fieldIndex) => (
              <TextInput
                key={header}
                label={`${header} ${index + 1}`}
                autoComplete="off"
                style={{ flex: 1 }}
                error={errors.rows?.[index]?.fields?.[fieldIndex]?.message}
                {...register(`rows.${index}.fields.${fieldIndex}`)}
              />
            ))}
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              mt={26}
              aria-label={`Remove contact ${index + 1}`}
              disabled={rows.length === 1}
              onClick={() => remove(index)}
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => append(emptyRow())}>
            Add another contact
          </Button>
        </Group>
        <FormError message={errors.root?.message} />
        <FormActions submitLabel={rows.length === 1 ? 'Add contact' : `Add ${rows.length} contacts`} submitting={isSubmitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
