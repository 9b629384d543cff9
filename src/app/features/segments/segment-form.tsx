import { ActionIcon, Button, Grid, Group, Input, Paper, SegmentedControl, Stack, Text, TextInput, Textarea, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useId, useMemo, type ReactNode } from 'react';
import { Controller, useFieldArray, useForm, useWatch, type Control, type FieldErrors, type FieldPath, type UseFormSetValue } from 'react-hook-form';
import { SEGMENT_MAX_CONDITIONS, type SegmentInput, type SegmentMatch } from '../../../shared/contract/segments';
import { isApiError } from '../../api/api-error';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard';
import { ConditionEditor, messageAt, type RowPath, type SegmentPickers } from './condition-editor';
import type { ConditionNames } from './condition-sentences';
import {
  emptyCondition,
  NEW_SEGMENT,
  segmentDraft,
  segmentResolver,
  withType,
  type ConditionType,
  type ConditionValues,
  type SegmentDraft,
  type SegmentFormValues,
} from './segment-form-values';

interface SegmentFormProps {
  defaultValues?: SegmentFormValues;
  pickers: SegmentPickers;
  submitLabel: string;
  /** Saves the segment; a rejection carrying 422 field errors shows them on the inputs they name (`conditions.1.value`). */
  onSubmit: (input: SegmentInput) => Promise<unknown>;
  onCancel?: () => void;
  /** Beside the conditions (above them on a phone): the live count of what can be counted now, null while a condition is unfinished. */
  aside?: (draft: SegmentDraft | null) => ReactNode;
}

type FormControl = Control<SegmentFormValues, unknown, SegmentInput>;
type LooseControl = Control<SegmentFormValues, unknown, unknown>;

const MATCH_OPTIONS = (noun: string) => [
  { value: 'all', label: `All ${noun}` },
  { value: 'any', label: `Any ${noun.replace(/s$/, '')}` },
];

/** The names the sentences need, from what the pickers hold. */
function namesOf(pickers: SegmentPickers): ConditionNames {
  const groups = new Map([...(pickers.groups.known ?? []), ...pickers.groups.data].map((option) => [option.value, option.label]));
  const campaigns = new Map([...(pickers.campaigns.known ?? []), ...pickers.campaigns.data].map((option) => [option.value, option.label]));
  return { group: (uuid) => groups.get(uuid), campaign: (uuid) => campaigns.get(uuid) };
}

/**
 * The segment builder: a name, whether contacts must match all or any of the conditions, and the
 * conditions (one level of groups), each with the inputs its type and op need and the sentence it
 * reads as. The contract's own rules (SegmentInputSchema) check it before it is sent.
 */
export function SegmentForm({ defaultValues = NEW_SEGMENT, pickers, submitLabel, onSubmit, onCancel, aside }: SegmentFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    control,
    getValues,
    setValue,
    clearErrors,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<SegmentFormValues, unknown, SegmentInput>({ resolver: segmentResolver, defaultValues });
  const { fields, append, remove } = useFieldArray({ control, name: 'conditions' });
  const names = useMemo(() => namesOf(pickers), [pickers]);
  const loose = control as unknown as LooseControl;

  const submit = handleSubmit(async (input) => {
    try {
      await onSubmit(input);
    } catch (error) {
      if (!isApiError(error)) throw error;
      let focused = false;
      for (const [field, [message]] of Object.entries(error.fieldErrors)) {
        if (!message) continue;
        setError(field as FieldPath<SegmentFormValues>, { type: 'server', message }, { shouldFocus: !focused });
        focused = true;
      }
      if (!focused) setError('root', { type: 'server', message: error.message });
    }
  });

  /**
   * A row's type changed in place (its inputs stay mounted, so the Type select keeps the focus): the
   * op becomes the new type's, and a new group gets its first condition.
   */
  const switchType = (path: RowPath, type: ConditionType) => {
    const before = getValues(path);
    const after = withType(before, type);
    setValue(`${path}.type`, after.type, { shouldDirty: true });
    setValue(`${path}.op`, after.op, { shouldDirty: true });
    if (path.split('.').length === 2 && type === 'group_of_conditions') {
      const group = after as ConditionValues;
      setValue(`${path}.conditions` as `conditions.${number}.conditions`, group.conditions, { shouldDirty: true });
    }
    clearErrors(path);
  };

  const listError = errors.conditions?.message ?? errors.conditions?.root?.message;

  return (
    <form onSubmit={submit} noValidate aria-label="Segment">
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 2, md: 1 }}>
          <Stack gap="md">
            <TextInput
              label="Name"
              description="Shown in lists and on the campaign form."
              autoComplete="off"
              withAsterisk
              data-autofocus
              error={errors.name?.message}
              {...register('name')}
            />
            <Textarea
              label="Description"
              description="Optional: who the segment is for."
              autosize
              minRows={1}
              maxRows={4}
              error={errors.description?.message}
              {...register('description')}
            />
            <MatchControl control={control} name="match" label="Contacts must match" noun="conditions" />
            <Stack gap="sm" role="list" aria-label="Conditions">
              {fields.map((field, index) => (
                <ConditionRow
                  key={field.id}
                  title={`Condition ${index + 1}`}
                  onRemove={fields.length > 1 ? () => remove(index) : undefined}
                  error={errors.conditions?.[index]?.message}
                >
                  <ConditionEditor
                    control={loose}
                    path={`conditions.${index}`}
                    nested={false}
                    pickers={pickers}
                    names={names}
                    errors={errors}
                    onTypeChange={(type) => switchType(`conditions.${index}`, type)}
                    setValue={setValue}
                    group={
                      <NestedConditions
                        control={control}
                        index={index}
                        pickers={pickers}
                        names={names}
                        errors={errors}
                        switchType={switchType}
                        setValue={setValue}
                      />
                    }
                  />
                </ConditionRow>
              ))}
            </Stack>
            <FormError message={listError} />
            <Group>
              <Button
                variant="default"
                leftSection={<IconPlus size={16} />}
                onClick={() => append(emptyCondition('field'), { shouldFocus: false })}
                disabled={fields.length >= SEGMENT_MAX_CONDITIONS}
              >
                Add a condition
              </Button>
            </Group>
            <FormError message={errors.root?.message} />
            <FormActions submitLabel={submitLabel} submitting={isSubmitting} onCancel={onCancel} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 1, md: 2 }}>
          {aside && <DraftAside control={control} aside={aside} />}
        </Grid.Col>
      </Grid>
      <UnsavedChangesGuard when={isDirty && !isSubmitting} what="this segment" />
    </form>
  );
}

/** The aside, given the conditions as they are now: only this re-renders on every keystroke, not the whole form. */
function DraftAside({ control, aside }: { control: FormControl; aside: (draft: SegmentDraft | null) => ReactNode }) {
  const match = useWatch({ control, name: 'match' });
  const conditions = useWatch({ control, name: 'conditions' });
  const draft = useMemo(() => segmentDraft({ match, conditions }), [match, conditions]);
  return aside(draft);
}

function MatchControl({ control, name, label, noun }: { control: FormControl; name: FieldPath<SegmentFormValues>; label: string; noun: string }) {
  const id = useId();
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Input.Wrapper label={label} id={id}>
          <SegmentedControl
            aria-labelledby={`${id}-label`}
            display="flex"
            mt={4}
            value={field.value as SegmentMatch}
            onChange={field.onChange}
            data={MATCH_OPTIONS(noun)}
          />
        </Input.Wrapper>
      )}
    />
  );
}

/** A bordered row with its title and remove button; a list item named by its title. */
function ConditionRow({ title, onRemove, error, children }: { title: string; onRemove?: () => void; error?: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper withBorder radius="md" p="sm" role="listitem" aria-labelledby={id} style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}>
      <Stack gap="xs" role="group" aria-labelledby={id}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} size="sm" id={id}>
            {title}
          </Text>
          {onRemove && (
            <Tooltip label={`Remove ${title.toLowerCase()}`}>
              <ActionIcon variant="subtle" color="red" aria-label={`Remove ${title.toLowerCase()}`} onClick={onRemove}>
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
        <FormError message={error} />
        {children}
      </Stack>
    </Paper>
  );
}

/** A group of conditions: its own all or any, and its leaf conditions (no deeper groups). */
function NestedConditions({
  control,
  index,
  pickers,
  names,
  errors,
  switchType,
  setValue,
}: {
  control: FormControl;
  index: number;
  pickers: SegmentPickers;
  names: ConditionNames;
  errors: FieldErrors<SegmentFormValues>;
  switchType: (path: RowPath, type: ConditionType) => void;
  setValue: UseFormSetValue<SegmentFormValues>;
}) {
  const { fields, append, remove } = useFieldArray({ control, name: `conditions.${index}.conditions` });
  const groupError = messageAt(errors, `conditions.${index}.conditions`);
  return (
    <Stack gap="sm" pl="sm" style={{ borderLeft: '3px solid var(--mantine-color-indigo-2)' }}>
      <MatchControl control={control} name={`conditions.${index}.match`} label="Within this group, contacts must match" noun="conditions" />
      <Stack gap="sm" role="list" aria-label={`Conditions of condition ${index + 1}`}>
        {fields.map((field, inner) => (
          <ConditionRow key={field.id} title={`Condition ${index + 1}.${inner + 1}`} onRemove={fields.length > 1 ? () => remove(inner) : undefined}>
            <ConditionEditor
              control={control as unknown as LooseControl}
              path={`conditions.${index}.conditions.${inner}`}
              nested
              pickers={pickers}
              names={names}
              errors={errors}
              onTypeChange={(type) => switchType(`conditions.${index}.conditions.${inner}`, type)}
              setValue={setValue}
            />
          </ConditionRow>
        ))}
      </Stack>
      {fields.length === 0 && groupError && <FormError message={groupError} />}
      <Group>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => append(emptyCondition('field'), { shouldFocus: false })}
          disabled={fields.length >= SEGMENT_MAX_CONDITIONS}
        >
          Add a condition to this group
        </Button>
      </Group>
    </Stack>
  );
}
