import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useFieldArray, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import type { WebhookFormValues } from './webhook-form-schema';

interface WebhookHeadersEditorProps {
  control: Control<WebhookFormValues>;
  register: UseFormRegister<WebhookFormValues>;
  errors: FieldErrors<WebhookFormValues>['headers'];
}

/** Headers sent with every call, one name/value row each; rows are added and removed in place. */
export function WebhookHeadersEditor({ control, register, errors }: WebhookHeadersEditorProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'headers' });

  return (
    <Stack gap="xs" role="group" aria-labelledby="webhook-headers-label">
      <div>
        <Text id="webhook-headers-label" size="sm" fw={500}>
          Headers
        </Text>
        <Text size="xs" c="dimmed">
          Sent with every call, e.g. an Authorization header your endpoint expects. Herald adds its own signature headers.
        </Text>
      </div>
      {fields.length === 0 && (
        <Text size="sm" c="dimmed">
          No headers.
        </Text>
      )}
      {fields.map((field, index) => (
        <Group key={field.id} align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            aria-label={`Header ${index + 1} name`}
            placeholder="Name, e.g. Authorization"
            autoComplete="off"
            style={{ flex: 2 }}
            error={errors?.[index]?.name?.message}
            {...register(`headers.${index}.name`)}
          />
          <TextInput
            aria-label={`Header ${index + 1} value`}
            placeholder="Value"
            autoComplete="off"
            style={{ flex: 3 }}
            error={errors?.[index]?.value?.message}
            {...register(`headers.${index}.value`)}
          />
          <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove header ${index + 1}`} onClick={() => remove(index)}>
            <IconTrash size={18} />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => append({ name: '', value: '' })}>
          Add header
        </Button>
      </Group>
    </Stack>
  );
}
