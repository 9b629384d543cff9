import { Checkbox, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useId, type Ref } from 'react';
import { EVENT_TYPES, type EventType } from '../../../shared/contract';
import { EVENT_TYPE_GROUPS } from './event-types';

interface EventTypesPickerProps {
  value: readonly EventType[];
  onChange: (value: EventType[]) => void;
  /** The form's ref, on the first checkbox: an error moves the focus there. */
  inputRef?: Ref<HTMLInputElement>;
  error?: string;
}

/** The event types as checkboxes, grouped (messages, campaigns, contacts, …), each with one line on when it is sent. */
export function EventTypesPicker({ value, onChange, inputRef, error }: EventTypesPickerProps) {
  const labelId = useId();
  const errorId = useId();
  // Each group changes its own types; the list keeps the contract's order whatever was ticked first.
  const changeGroup = (groupTypes: readonly EventType[], ticked: string[]) =>
    onChange(EVENT_TYPES.filter((type) => (groupTypes.includes(type) ? ticked.includes(type) : value.includes(type))));

  return (
    <Stack gap="xs" role="group" aria-labelledby={labelId} aria-describedby={error ? errorId : undefined}>
      <div>
        <Text id={labelId} size="sm" fw={500}>
          Events{' '}
          <Text span c="red" aria-hidden>
            *
          </Text>
        </Text>
        <Text size="xs" c="dimmed">
          Herald sends what you tick, from now on; each call carries one event.
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
        {EVENT_TYPE_GROUPS.map((group, groupIndex) => {
          const groupTypes = group.types.map(({ type }) => type);
          return (
            <Paper key={group.label} withBorder radius="md" p="sm">
              <Checkbox.Group
                label={group.label}
                description={group.description}
                value={value.filter((type) => groupTypes.includes(type))}
                onChange={(ticked) => changeGroup(groupTypes, ticked)}
              >
                <Stack gap="xs" mt="xs">
                  {group.types.map(({ type, explanation }, index) => (
                    <Checkbox
                      key={type}
                      value={type}
                      ref={groupIndex === 0 && index === 0 ? inputRef : undefined}
                      label={
                        <Text span ff="monospace" size="sm">
                          {type}
                        </Text>
                      }
                      description={explanation}
                      error={Boolean(error)}
                    />
                  ))}
                </Stack>
              </Checkbox.Group>
            </Paper>
          );
        })}
      </SimpleGrid>
      {error && (
        <Text id={errorId} size="sm" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
