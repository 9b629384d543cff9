import { ActionIcon, Button, Group, Paper, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useFieldArray, type Control } from 'react-hook-form';
import { MAX_PAUSES, type CampaignInput } from '../../../shared/contract';
import type { CampaignFormValues } from './campaign-form-values';
import { ZonedDateTimeInput } from '../../components/zoned-date-time-field';

interface PauseEditorProps {
  control: Control<CampaignFormValues, unknown, CampaignInput>;
  timeZone: string;
  /** The message for a request field (`pauses.1`, `pauses.1.end_at`, `pauses`), as the service would give it. */
  errorOf: (field: string) => string | undefined;
  /** The pause "Add pause" proposes: inside the sending window, clear of the other pauses. */
  proposal: () => { start_at: string; end_at: string };
  readOnly?: boolean;
}

/** Periods in which a throttled campaign sends nothing: one row of start and end each. */
export function PauseEditor({ control, timeZone, errorOf, proposal, readOnly }: PauseEditorProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'pauses' });
  const listError = errorOf('pauses');

  const addPause = () => append(proposal(), { shouldFocus: true });

  return (
    <Stack gap="xs" role="group" aria-label="Pauses">
      <Group justify="space-between">
        <div>
          <Text size="sm" fw={500}>
            Pauses
          </Text>
          <Text size="xs" c="dimmed">
            Nothing is sent during a pause. Each lies between the send and finish dates; at most {MAX_PAUSES}.
          </Text>
        </div>
        {!readOnly && (
          <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} onClick={addPause} disabled={fields.length >= MAX_PAUSES}>
            Add pause
          </Button>
        )}
      </Group>
      {fields.length === 0 && (
        <Text size="sm" c="dimmed" fs="italic">
          No pauses: messages are spread evenly from send to finish.
        </Text>
      )}
      {fields.map((field, index) => {
        const rowError = errorOf(`pauses.${index}`);
        const rowErrorId = `pause-${field.id}-error`;
        return (
          <Paper
            key={field.id}
            withBorder
            radius="md"
            p="sm"
            bg={rowError ? 'var(--mantine-color-red-light)' : undefined}
            role="group"
            aria-label={`Pause ${index + 1}`}
            aria-describedby={rowError ? rowErrorId : undefined}
          >
            <Group align="flex-start" gap="sm" wrap="nowrap">
              <Text size="sm" fw={600} c="dimmed" mt={30} w={20} aria-hidden>
                {index + 1}
              </Text>
              {/* Start and end side by side while both times fit whole, else one above the other. */}
              <SimpleGrid minColWidth="min(13rem, 100%)" autoFlow="auto-fit" spacing="sm" verticalSpacing="xs" style={{ flex: 1, minWidth: 0 }}>
                <ZonedDateTimeInput
                  control={control}
                  name={`pauses.${index}.start_at`}
                  label={`Pause ${index + 1} starts`}
                  timeZone={timeZone}
                  error={errorOf(`pauses.${index}.start_at`)}
                  readOnly={readOnly}
                />
                <ZonedDateTimeInput
                  control={control}
                  name={`pauses.${index}.end_at`}
                  label={`Pause ${index + 1} ends`}
                  timeZone={timeZone}
                  error={errorOf(`pauses.${index}.end_at`)}
                  readOnly={readOnly}
                />
              </SimpleGrid>
              {!readOnly && (
                <Tooltip label="Remove">
                  <ActionIcon variant="subtle" color="red" mt={28} aria-label={`Remove pause ${index + 1}`} onClick={() => remove(index)}>
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              )}
            </Group>
            {rowError && (
              <Text id={rowErrorId} size="sm" c="red" mt={6} role="alert">
                {rowError}
              </Text>
            )}
          </Paper>
        );
      })}
      {listError && (
        <Text size="sm" c="red" role="alert">
          {listError}
        </Text>
      )}
    </Stack>
  );
}
