import { NumberInput, type NumberInputProps } from '@mantine/core';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';

export interface WholeNumberSpec<TName extends string> {
  name: TName;
  label: string;
  description: string;
  /** Written inside the field, after the number ("days"). */
  unit: string;
  min: number;
  max: number;
}

interface WholeNumberFieldProps<TValues extends FieldValues> extends Pick<NumberInputProps, 'w' | 'maw' | 'rightSectionWidth'> {
  control: Control<TValues>;
  spec: WholeNumberSpec<FieldPath<TValues>>;
}

/** A required whole number of a settings card, with its unit inside the field; an empty field is NaN, which the form's schema refuses. */
export function WholeNumberField<TValues extends FieldValues>({ control, spec, ...layout }: WholeNumberFieldProps<TValues>) {
  return (
    <Controller
      control={control}
      name={spec.name}
      render={({ field, fieldState }) => (
        <NumberInput
          ref={field.ref}
          label={spec.label}
          description={spec.description}
          value={field.value}
          onChange={(value) => field.onChange(typeof value === 'number' ? value : Number.NaN)}
          onBlur={field.onBlur}
          name={field.name}
          withAsterisk
          allowDecimal={false}
          allowNegative={false}
          min={spec.min}
          max={spec.max}
          rightSection={spec.unit}
          rightSectionPointerEvents="none"
          error={fieldState.error?.message}
          {...layout}
        />
      )}
    />
  );
}
