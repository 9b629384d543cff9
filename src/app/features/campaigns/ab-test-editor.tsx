import { ActionIcon, Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useWatch, type Control, type UseFormRegister } from 'react-hook-form';
import type { CampaignInput } from '../../../shared/contract';
import type { CampaignFormValues } from './campaign-form-values';

interface AbTestEditorProps {
  control: Control<CampaignFormValues, unknown, CampaignInput>;
  register: UseFormRegister<CampaignFormValues>;
  /** The message for a request field (`variants`, `variants.2.name`, `ab_test.test_share`), as the service would give it. */
  errorOf: (field: string) => string | undefined;
  templates: ReadonlyArray<{ value: string; label: string }>;
  senders: readonly string[];
  readOnly?: boolean;
}

const METRICS = [
  { value: 'human_click_rate', label: 'Human click rate' },
  { value: 'conversion_rate', label: 'Conversion rate' },
  { value: 'revenue_per_recipient', label: 'Revenue per recipient' },
];

/**
 * An A/B test (docs/ab-tests.md): 2 to 4 variants, the first the campaign's own template and the
 * others each with a template and an optional sender, and the test's settings.
 */
export function AbTestEditor({ control, register, errorOf, templates, senders, readOnly }: AbTestEditorProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'ab.others' });
  const enabled = useWatch({ control, name: 'ab.enabled' });
  const number = (
    name: 'ab.test_share' | 'ab.decide_after_minutes' | 'ab.min_recipients_per_variant',
    label: string,
    description: string,
    field: string,
    max: number,
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field: input }) => (
        <NumberInput
          label={label}
          description={description}
          min={1}
          max={max}
          allowDecimal={false}
          value={input.value}
          onChange={(value) => input.onChange(typeof value === 'number' ? value : Number(value) || 0)}
          onBlur={input.onBlur}
          error={errorOf(field)}
          readOnly={readOnly}
        />
      )}
    />
  );
  return (
    <Stack gap="sm" role="group" aria-label="A/B test">
      <Controller
        control={control}
        name="ab.enabled"
        render={({ field }) => (
          <Switch
            checked={field.value}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
            label="A/B test"
            description="Test 2 to 4 messages on part of the audience; the winner goes to the rest."
            disabled={readOnly}
          />
        )}
      />
      {enabled && (
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <TextInput
              label="First variant’s name"
              description="It sends the campaign’s template and sender."
              error={errorOf('variants.0.name')}
              readOnly={readOnly}
              {...register('ab.first_name')}
            />
            {fields.map((variant, i) => (
              <Group key={variant.id} align="flex-start" gap="sm" wrap="wrap">
                <TextInput
                  label={`Variant ${i + 2} name`}
                  w={150}
                  error={errorOf(`variants.${i + 1}.name`)}
                  readOnly={readOnly}
                  {...register(`ab.others.${i}.name`)}
                />
                <Controller
                  control={control}
                  name={`ab.others.${i}.template_uuid`}
                  render={({ field }) => (
                    <Select
                      label={`Variant ${i + 2} template`}
                      placeholder="Pick a template"
                      data={[...templates]}
                      searchable
                      value={field.value || null}
                      onChange={(uuid) => field.onChange(uuid ?? '')}
                      error={errorOf(`variants.${i + 1}.template_uuid`)}
                      readOnly={readOnly}
                      style={{ flex: 1, minWidth: 180 }}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name={`ab.others.${i}.sender`}
                  render={({ field }) => (
                    <Select
                      label={`Variant ${i + 2} sender`}
                      placeholder="The campaign’s"
                      data={[...senders]}
                      clearable
                      value={field.value || null}
                      onChange={(sender) => field.onChange(sender ?? '')}
                      error={errorOf(`variants.${i + 1}.sender`)}
                      readOnly={readOnly}
                      w={160}
                    />
                  )}
                />
                {!readOnly && fields.length > 1 && (
                  <Tooltip label={`Remove variant ${i + 2}`}>
                    <ActionIcon variant="subtle" color="red" mt={26} aria-label={`Remove variant ${i + 2}`} onClick={() => remove(i)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            ))}
            {errorOf('variants') && (
              <Text size="sm" c="red" role="alert">
                {errorOf('variants')}
              </Text>
            )}
            {!readOnly && (
              <Group>
                <Button
                  variant="default"
                  size="xs"
                  leftSection={<IconPlus size={14} />}
                  onClick={() => append({ name: String.fromCharCode(66 + fields.length), template_uuid: '', sender: '' }, { shouldFocus: true })}
                  disabled={fields.length >= 3}
                >
                  Add a variant
                </Button>
              </Group>
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {number('ab.test_share', 'Test share (%)', 'Of the audience, split evenly between the variants.', 'ab_test.test_share', 99)}
              <Controller
                control={control}
                name="ab.metric"
                render={({ field }) => (
                  <Select
                    label="Winner by"
                    description="What decides the winner."
                    data={METRICS}
                    value={field.value}
                    onChange={(metric) => metric && field.onChange(metric)}
                    allowDeselect={false}
                    readOnly={readOnly}
                  />
                )}
              />
              {number(
                'ab.decide_after_minutes',
                'Decide after (minutes)',
                'Sending time only: pauses and quiet hours do not count.',
                'ab_test.decide_after_minutes',
                10_080,
              )}
              {number(
                'ab.min_recipients_per_variant',
                'At least per variant',
                'When the audience allows; a small one is tested whole.',
                'ab_test.min_recipients_per_variant',
                1_000_000,
              )}
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              The winner is the variant with at least a 90% probability of being best; otherwise the first variant wins and the result is shown as not
              significant.
            </Text>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
