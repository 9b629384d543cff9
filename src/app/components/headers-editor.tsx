import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useId } from 'react';
import { useFieldArray, type ArrayPath, type Control, type FieldErrors, type FieldValues, type Path, type UseFormRegister } from 'react-hook-form';
import type { HeaderRow } from '../lib/header-rows';

/** A form whose values hold the editor's rows under `headers` (a webhook's, an event endpoint's). */
type WithHeaders = FieldValues & { headers: HeaderRow[] };

interface HeadersEditorProps<TValues extends WithHeaders> {
  control: Control<TValues>;
  register: UseFormRegister<TValues>;
  errors: FieldErrors<{ headers: HeaderRow[] }>['headers'];
}

/** Headers sent with every call, one name/value row each; rows are added and removed in place. */
export function HeadersEditor<TValues extends WithHeaders>({ control, register, errors }: HeadersEditorProps<TValues>) {
  // The form's own type cannot name the rows' paths generically; they are `headers`, `headers.<n>.name|value` in every form.
  const { fields, append, remove } = useFieldArray({ control, name: 'headers' as ArrayPath<TValues> });
  const row = (index: number, part: keyof HeaderRow) => register(`headers.${index}.${part}` as Path<TValues>);
  const labelId = useId();

  return (
    <Stack gap="xs" role="group" aria-labelledby={labelId}>
      <div>
        <Text id={labelId} size="sm" fw={500}>
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
            {...row(index, 'name')}
          />
          <TextInput
            aria-label={`Header ${index + 1} value`}
            placeholder="Value"
            autoComplete="off"
            style={{ flex: 3 }}
            error={errors?.[index]?.value?.message}
            {...row(index, 'value')}
          />
          <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove header ${index + 1}`} onClick={() => remove(index)}>
            <IconTrash size={18} />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => append({ name: '', value: '' } as Parameters<typeof append>[0])}>
          Add header
        </Button>
      </Group>
    </Stack>
  );
}
