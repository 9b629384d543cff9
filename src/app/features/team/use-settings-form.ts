import { useForm, type DefaultValues, type FieldPath, type FieldValues, type Resolver, type UseFormReturn } from 'react-hook-form';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { applySettingsErrors } from './settings-field-errors';

interface SettingsFormOptions<TValues extends FieldValues> {
  /** The form's values for the settings as they are now (and again after each save). */
  valuesOf: (settings: TeamSettings) => TValues;
  /** The values read from the settings the card was given. */
  initial: TValues;
  /** What the card sends to `PUT /team/settings`. */
  inputOf: (values: TValues) => TeamSettingsInput;
  resolver?: Resolver<TValues>;
  /** Which form field each of the service's field names (dotted for nested ones) belongs to. */
  serverFields: Partial<Record<string, FieldPath<TValues>>>;
  onSubmit: (input: TeamSettingsInput) => Promise<TeamSettings>;
}

export interface SettingsForm<TValues extends FieldValues> extends UseFormReturn<TValues> {
  /** The form's submit handler: saves, then shows what was saved, or puts a 422 on its fields. */
  submit: (event?: React.BaseSyntheticEvent) => Promise<void>;
  /** Puts the saved values back; only while something was changed (for `FormActions`). */
  cancel: (() => void) | undefined;
}

/**
 * One card of the team's settings: each edits a few fields of the same `PUT /team/settings`, shows
 * what the service saved (it may normalise), and shows a 422 on the field it names.
 */
export function useSettingsForm<TValues extends FieldValues>({
  valuesOf,
  initial,
  inputOf,
  resolver,
  serverFields,
  onSubmit,
}: SettingsFormOptions<TValues>): SettingsForm<TValues> {
  // `initial` seeds the form once; later renders' values are react-hook-form's own, as with any `defaultValues`.
  const form = useForm<TValues>({ resolver, defaultValues: initial as DefaultValues<TValues> });
  const submit = form.handleSubmit(async (values) => {
    try {
      form.reset(valuesOf(await onSubmit(inputOf(values))));
    } catch (error) {
      applySettingsErrors(error, serverFields, form.setError);
    }
  });
  return { ...form, submit, cancel: form.formState.isDirty ? () => form.reset() : undefined };
}
