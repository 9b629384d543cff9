import { Button, Chip, Group, Popover, Stack, Text, TextInput } from '@mantine/core';
import { IconBraces } from '@tabler/icons-react';
import { useState } from 'react';
import { FIELD_NAME, recentFieldNames, rememberFieldName } from './recent-field-names';

interface InsertFieldMenuProps {
  /** Names to offer besides the recent ones (fields already in the body, columns of contact groups). */
  suggestions: readonly string[];
  onInsert: (shorthand: string) => void;
  disabled?: boolean;
}

/** Inserts `{{name}}` at the cursor: a name typed here, or one picked from those used lately. */
export function InsertFieldMenu({ suggestions, onInsert, disabled }: InsertFieldMenuProps) {
  const [opened, setOpened] = useState(false);
  const [name, setName] = useState('');
  const [recent, setRecent] = useState<string[]>([]);
  const trimmed = name.trim();
  const invalid = trimmed !== '' && !FIELD_NAME.test(trimmed);
  const offered = [...new Set([...recent, ...suggestions])].slice(0, 12);

  const open = () => {
    setRecent(recentFieldNames());
    setOpened(true);
  };

  const insert = (field: string) => {
    rememberFieldName(field);
    onInsert(`{{${field}}}`);
    setName('');
    setOpened(false);
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" withArrow shadow="md" trapFocus width={320}>
      <Popover.Target>
        <Button variant="default" size="xs" leftSection={<IconBraces size={14} />} onClick={() => (opened ? setOpened(false) : open())} disabled={disabled}>
          Insert field
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            // The dropdown is portalled, but React still bubbles its submit to the template form.
            event.stopPropagation();
            if (trimmed && !invalid) insert(trimmed);
          }}
        >
          <Stack gap="sm">
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <TextInput
                label="Field name"
                placeholder="e.g. first_name"
                size="xs"
                autoComplete="off"
                data-autofocus
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                error={invalid ? 'Letters, digits, _ . - and single spaces only.' : undefined}
                style={{ flex: 1 }}
              />
              <Button type="submit" size="xs" disabled={!trimmed || invalid} mb={invalid ? 22 : 0}>
                Insert
              </Button>
            </Group>
            {offered.length > 0 && (
              <div>
                <Text size="xs" c="dimmed" mb={6}>
                  Recent and known fields
                </Text>
                <Group gap={6}>
                  {offered.map((field) => (
                    <Chip key={field} size="xs" checked={false} onChange={() => insert(field)} variant="outline">
                      {field}
                    </Chip>
                  ))}
                </Group>
              </div>
            )}
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
