import { Stack, Switch } from '@mantine/core';
import { Controller, type Control, type UseFormTrigger } from 'react-hook-form';
import { ServerSearchMultiSelect } from '../../components/server-search';
import type { KeywordFormValues, PickerOption } from './keyword-form-values';

interface KeywordOptionProps {
  control: Control<KeywordFormValues>;
  trigger: UseFormTrigger<KeywordFormValues>;
  option: 'add_contact_to_group' | 'call_webhook';
  targets: 'contact_groups_uuid' | 'webhooks_uuid';
  switchLabel: string;
  pickerLabel: string;
  placeholder: string;
  nothingFound: string;
  data: readonly PickerOption[];
  /** Options that name chosen targets the current results may not hold. */
  known?: readonly PickerOption[];
  /** Called with the text typed, for the page to search the service with. */
  onSearch?: (text: string) => void;
  enabled: boolean;
  error?: string;
}

/** One of a keyword's options: a switch, and when it is on, the groups or webhooks it acts on, picked by name. */
export function KeywordOption({
  control,
  trigger,
  option,
  targets,
  switchLabel,
  pickerLabel,
  placeholder,
  nothingFound,
  data,
  known,
  onSearch,
  enabled,
  error,
}: KeywordOptionProps) {
  return (
    <Stack gap="xs">
      <Controller
        control={control}
        name={option}
        render={({ field: { value, onChange, ...field } }) => (
          <Switch
            {...field}
            checked={value ?? false}
            onChange={(event) => {
              onChange(event.currentTarget.checked);
              // The rule is shown as soon as the option is on without a target (and cleared when it is off).
              void trigger(targets);
            }}
            label={switchLabel}
          />
        )}
      />
      {enabled && (
        <Controller
          control={control}
          name={targets}
          render={({ field: { value, onChange, ...field } }) => (
            <ServerSearchMultiSelect
              {...field}
              label={pickerLabel}
              placeholder={placeholder}
              data={data}
              known={known}
              onSearch={onSearch}
              value={value ?? []}
              onChange={(uuids) => {
                onChange(uuids);
                void trigger(targets);
              }}
              nothingFoundMessage={nothingFound}
              error={error}
            />
          )}
        />
      )}
    </Stack>
  );
}
