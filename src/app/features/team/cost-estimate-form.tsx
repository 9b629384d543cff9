import { Group, NumberInput, Select, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { FormActions } from '../../components/form-actions';
import { costEstimateInput, costEstimateOf, costEstimateSchema, currencyOptions, MAX_PRICE, type CostEstimateValues } from './cost-estimate';
import { useSettingsForm } from './use-settings-form';

const SERVER_FIELDS = { price_per_segment: 'price_per_segment', currency: 'currency' } as const;

interface CostEstimateFormProps {
  settings: Pick<TeamSettings, 'price_per_segment' | 'currency'>;
  /** Saves the price and its currency; a rejection carrying a 422 shows it on the field it names. */
  onSubmit: (input: TeamSettingsInput) => Promise<TeamSettings>;
}

export function CostEstimateForm({ settings, onSubmit }: CostEstimateFormProps) {
  const {
    control,
    submit,
    cancel,
    formState: { errors, isSubmitting },
  } = useSettingsForm<CostEstimateValues>({
    resolver: zodResolver(costEstimateSchema),
    initial: costEstimateOf(settings),
    valuesOf: costEstimateOf,
    inputOf: costEstimateInput,
    serverFields: SERVER_FIELDS,
    onSubmit,
  });
  const currency = useWatch({ control, name: 'currency' });
  const currencies = useMemo(() => currencyOptions(settings.currency), [settings.currency]);

  return (
    <form onSubmit={submit} noValidate aria-label="Cost estimate">
      <Stack gap="lg">
        <Group align="flex-start" gap="md">
          <Controller
            control={control}
            name="price_per_segment"
            render={({ field }) => (
              <NumberInput
                ref={field.ref}
                label="Price per SMS part"
                description="Leave empty for no estimate."
                placeholder="e.g. 0.045"
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                name={field.name}
                decimalScale={5}
                allowNegative={false}
                min={0}
                max={MAX_PRICE}
                hideControls
                rightSection={currency}
                rightSectionWidth={56}
                rightSectionPointerEvents="none"
                error={errors.price_per_segment?.message}
                w={{ base: '100%', xs: 220 }}
              />
            )}
          />
          <Controller
            control={control}
            name="currency"
            render={({ field }) => (
              <Select
                ref={field.ref}
                name={field.name}
                onBlur={field.onBlur}
                label="Currency"
                description="The currency your provider bills in."
                data={currencies}
                value={field.value}
                onChange={(value) => value && field.onChange(value)}
                searchable
                nothingFoundMessage="No currency by that code or name"
                allowDeselect={false}
                withAsterisk
                error={errors.currency?.message}
                w={{ base: '100%', xs: 260 }}
              />
            )}
          />
        </Group>
        <FormActions submitLabel="Save cost estimate" submitting={isSubmitting} onCancel={cancel} />
      </Stack>
    </form>
  );
}
