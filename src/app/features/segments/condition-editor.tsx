import { Autocomplete, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, type ComboboxItem } from '@mantine/core';
import type { ReactNode } from 'react';
import { Controller, get, useWatch, type Control, type FieldErrors, type FieldPath, type UseFormSetValue } from 'react-hook-form';
import {
  DATE_FIELD_OPS,
  DAYS_FIELD_OPS,
  FAILURE_CLASSES,
  FIELD_OPS,
  LeafConditionSchema,
  NUMBER_FIELD_OPS,
  SEGMENT_EVENTS,
  SEGMENT_MAX_DAYS,
  VALUELESS_FIELD_OPS,
  type FieldOp,
} from '../../../shared/contract/segments';
import { CountryMultiSelect } from '../../components/country-select';
import { ServerSearchSelect } from '../../components/server-search';
import { leafSentence, type ConditionNames } from './condition-sentences';
import { CAMPAIGN_EVENTS, CONDITION_TYPE_LABELS, EVENT_LABELS, FAILURE_CLASS_LABELS, FIELD_OP_LABELS, MEMBERSHIP_LABELS } from './segment-labels';
import { toCondition, type ConditionType, type LeafValues, type SegmentFormValues } from './segment-form-values';

/** What the builder's pickers offer: the page finds them (features do not read each other's data). */
export interface SegmentPickers {
  /** The custom field names the team's contacts carry (suggestions: any name may be typed). */
  fieldSuggestions: readonly string[];
  /** The team's groups found for what was typed (`onSearch`), and those that name chosen ones whatever was found. */
  groups: { data: readonly ComboboxItem[]; known?: readonly ComboboxItem[]; onSearch?: (text: string) => void };
  /** The team's campaigns, newest first, and those that name chosen ones. */
  campaigns: { data: readonly ComboboxItem[]; known?: readonly ComboboxItem[] };
}

/** A row of the form: a top-level condition, or one inside a group. */
export type RowPath = `conditions.${number}` | `conditions.${number}.conditions.${number}`;

const LEAF_TYPES: ConditionType[] = ['field', 'group', 'country', 'event'];
const FIELD_OP_OPTIONS = FIELD_OPS.map((op) => ({ value: op, label: FIELD_OP_LABELS[op] }));
const EVENT_OPTIONS = SEGMENT_EVENTS.map((event) => ({ value: event, label: EVENT_LABELS[event] }));
const REASON_OPTIONS = FAILURE_CLASSES.map((reason) => ({ value: reason, label: FAILURE_CLASS_LABELS[reason] }));

/** What kind of value an op takes: its input. */
function valueKind(op: FieldOp): 'none' | 'number' | 'days' | 'date' | 'text' {
  if (VALUELESS_FIELD_OPS.has(op)) return 'none';
  if (NUMBER_FIELD_OPS.has(op)) return 'number';
  if (DAYS_FIELD_OPS.has(op)) return 'days';
  if (DATE_FIELD_OPS.has(op)) return 'date';
  return 'text';
}

/** The first message under a path: its own, or (for a list such as a country's `values.2`) one of its parts'. */
export function messageAt(errors: FieldErrors<SegmentFormValues>, path: string): string | undefined {
  const found = (error: unknown): string | undefined => {
    if (!error || typeof error !== 'object') return undefined;
    const { message } = error as { message?: unknown };
    if (typeof message === 'string') return message;
    for (const part of Object.values(error)) {
      const inner = found(part);
      if (inner) return inner;
    }
    return undefined;
  };
  return found(get(errors, path));
}

interface ConditionEditorProps {
  control: Control<SegmentFormValues, unknown, unknown>;
  path: RowPath;
  /** Top-level rows may become a group of conditions; rows inside one may not (one level only). */
  nested: boolean;
  pickers: SegmentPickers;
  names: ConditionNames;
  errors: FieldErrors<SegmentFormValues>;
  onTypeChange: (type: ConditionType) => void;
  setValue: UseFormSetValue<SegmentFormValues>;
  /** A group of conditions' own editor, shown under the type select while the row is a group. */
  group?: ReactNode;
}

/** One condition: its type, the inputs of that type, and the sentence it reads as once it is complete. */
export function ConditionEditor({ control, path, nested, pickers, names, errors, onTypeChange, setValue, group }: ConditionEditorProps) {
  const row = useWatch({ control, name: path as FieldPath<SegmentFormValues> }) as LeafValues | undefined;
  if (!row) return null;
  const typeOptions = (nested ? LEAF_TYPES : [...LEAF_TYPES, 'group_of_conditions' as const]).map((type) => ({
    value: type,
    label: CONDITION_TYPE_LABELS[type],
  }));
  const name = (key: keyof LeafValues) => `${path}.${key}` as FieldPath<SegmentFormValues>;
  const errorOf = (key: keyof LeafValues) => messageAt(errors, `${path}.${key}`);
  const parsed = row.type === 'group_of_conditions' ? undefined : LeafConditionSchema.safeParse(toCondition(row));

  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" verticalSpacing="xs">
        <Select label="Type" data={typeOptions} value={row.type} onChange={(type) => type && onTypeChange(type as ConditionType)} allowDeselect={false} />
        {row.type === 'field' && (
          <>
            <Controller
              control={control}
              name={name('field')}
              render={({ field }) => (
                <Autocomplete
                  ref={field.ref}
                  label="Field"
                  placeholder="e.g. first_name"
                  data={[...pickers.fieldSuggestions]}
                  value={field.value as string}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  autoComplete="off"
                  error={errorOf('field')}
                />
              )}
            />
            <Controller
              control={control}
              name={name('op')}
              render={({ field }) => (
                <Select
                  ref={field.ref}
                  label="Comparison"
                  data={FIELD_OP_OPTIONS}
                  value={field.value as string}
                  onChange={(op) => {
                    if (!op) return;
                    // A value typed for another kind of input (text, a number, a date, days) means nothing to this one.
                    if (valueKind(op as FieldOp) !== valueKind(field.value as FieldOp)) setValue(name('value'), '');
                    field.onChange(op);
                  }}
                  allowDeselect={false}
                  error={errorOf('op')}
                />
              )}
            />
            <FieldValueInput control={control} name={name('value')} op={row.op as FieldOp} error={errorOf('value')} />
          </>
        )}
        {(row.type === 'group' || row.type === 'country') && (
          <Controller
            control={control}
            name={name('op')}
            render={({ field }) => (
              <Select
                ref={field.ref}
                label="Membership"
                data={(['in', 'not_in'] as const).map((op) => ({ value: op, label: MEMBERSHIP_LABELS[row.type as 'group' | 'country'][op] }))}
                value={field.value as string}
                onChange={(op) => op && field.onChange(op)}
                allowDeselect={false}
                error={errorOf('op')}
              />
            )}
          />
        )}
        {row.type === 'group' && (
          <Controller
            control={control}
            name={name('group_uuid')}
            render={({ field }) => (
              <ServerSearchSelect
                ref={field.ref}
                label="Group"
                placeholder="Pick a group by name"
                data={pickers.groups.data}
                known={pickers.groups.known}
                onSearch={pickers.groups.onSearch}
                value={(field.value as string) || null}
                onChange={(uuid) => field.onChange(uuid ?? '')}
                onBlur={field.onBlur}
                nothingFoundMessage="No group of that name"
                error={errorOf('group_uuid')}
              />
            )}
          />
        )}
        {row.type === 'country' && (
          <Controller
            control={control}
            name={name('values')}
            render={({ field }) => (
              <CountryMultiSelect
                ref={field.ref}
                label="Countries"
                placeholder={(field.value as string[]).length ? undefined : 'Type a country'}
                value={field.value as string[]}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={errorOf('values')}
              />
            )}
          />
        )}
        {row.type === 'event' && <EventInputs control={control} row={row} name={name} errorOf={errorOf} pickers={pickers} />}
        {row.type === 'group_of_conditions' && (
          <Text size="sm" c="dimmed" style={{ gridColumn: 'span 2', alignSelf: 'end' }}>
            Conditions nested one level, with their own “all” or “any”.
          </Text>
        )}
      </SimpleGrid>
      {row.type === 'group_of_conditions' && group}
      {parsed?.success && (
        <Text size="sm" data-testid="condition-sentence">
          <Text span c="dimmed" size="sm">
            Reads:{' '}
          </Text>
          {leafSentence(parsed.data, names)}
        </Text>
      )}
    </Stack>
  );
}

/** The value input that fits the op: text, a number, a date, a number of days, or none. */
function FieldValueInput({
  control,
  name,
  op,
  error,
}: {
  control: Control<SegmentFormValues, unknown, unknown>;
  name: FieldPath<SegmentFormValues>;
  op: FieldOp;
  error?: string;
}) {
  if (VALUELESS_FIELD_OPS.has(op)) return null;
  if (NUMBER_FIELD_OPS.has(op) || DAYS_FIELD_OPS.has(op)) {
    const days = DAYS_FIELD_OPS.has(op);
    return <NumberField control={control} name={name} kind={days ? 'days' : 'number'} label={days ? 'Days' : 'Number'} error={error} />;
  }
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => {
        const common = { ref: field.ref, onBlur: field.onBlur, error };
        if (DATE_FIELD_OPS.has(op))
          return (
            <TextInput {...common} type="date" label="Date" value={field.value as string} onChange={(event) => field.onChange(event.currentTarget.value)} />
          );
        return (
          <TextInput
            {...common}
            label="Value"
            value={field.value as string}
            onChange={(event) => field.onChange(event.currentTarget.value)}
            autoComplete="off"
          />
        );
      }}
    />
  );
}

function EventInputs({
  control,
  row,
  name,
  errorOf,
  pickers,
}: {
  control: Control<SegmentFormValues, unknown, unknown>;
  row: LeafValues;
  name: (key: keyof LeafValues) => FieldPath<SegmentFormValues>;
  errorOf: (key: keyof LeafValues) => string | undefined;
  pickers: SegmentPickers;
}) {
  return (
    <>
      <Controller
        control={control}
        name={name('event')}
        render={({ field }) => (
          <Select
            ref={field.ref}
            label="What they did"
            data={EVENT_OPTIONS}
            value={field.value as string}
            onChange={(event) => event && field.onChange(event)}
            allowDeselect={false}
            error={errorOf('event')}
          />
        )}
      />
      {CAMPAIGN_EVENTS.has(row.event) && (
        <Controller
          control={control}
          name={name('campaign_uuid')}
          render={({ field }) => (
            <ServerSearchSelect
              ref={field.ref}
              label="Campaign"
              placeholder="Any campaign"
              data={pickers.campaigns.data}
              known={pickers.campaigns.known}
              value={(field.value as string) || null}
              onChange={(uuid) => field.onChange(uuid ?? '')}
              onBlur={field.onBlur}
              clearable
              nothingFoundMessage="No campaign of that name"
              error={errorOf('campaign_uuid')}
            />
          )}
        />
      )}
      <NumberField control={control} name={name('within_days')} kind="days" label="In the last … days" placeholder="Ever" error={errorOf('within_days')} />
      {row.event === 'converted' && (
        <NumberField control={control} name={name('value_gt')} kind="amount" label="Worth more than" placeholder="Any value" error={errorOf('value_gt')} />
      )}
      {row.event === 'failed' && (
        <Controller
          control={control}
          name={name('reason_class')}
          render={({ field }) => (
            <Select
              ref={field.ref}
              label="Reason"
              placeholder="Any reason"
              data={REASON_OPTIONS}
              value={(field.value as string) || null}
              onChange={(reason) => field.onChange(reason ?? '')}
              clearable
              error={errorOf('reason_class')}
            />
          )}
        />
      )}
    </>
  );
}

/**
 * A number in a condition, kept as the text typed (the form's values are strings): a count of days
 * (whole, 1 to SEGMENT_MAX_DAYS), an amount (not negative) or any number.
 */
function NumberField({
  control,
  name,
  kind,
  label,
  placeholder,
  error,
}: {
  control: Control<SegmentFormValues, unknown, unknown>;
  name: FieldPath<SegmentFormValues>;
  kind: 'days' | 'amount' | 'number';
  label: string;
  placeholder?: string;
  error?: string;
}) {
  const days = kind === 'days';
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <NumberInput
          ref={field.ref}
          onBlur={field.onBlur}
          label={label}
          placeholder={placeholder}
          value={field.value as string}
          onChange={(value) => field.onChange(String(value))}
          allowDecimal={!days}
          allowNegative={kind === 'number'}
          min={days ? 1 : undefined}
          max={days ? SEGMENT_MAX_DAYS : undefined}
          hideControls
          error={error}
        />
      )}
    />
  );
}
