import { Button, Group, MultiSelect, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { KeywordInputSchema, type KeywordInput } from '../../../shared/contract';
import { applyServerFieldErrors } from '../../lib/server-field-errors';

/** A contact group or webhook offered by name; the form stores its uuid. */
export interface PickerOption {
  value: string;
  label: string;
}

type KeywordFormValues = z.input<typeof KeywordInputSchema>;

const FIELDS = ['keyword', 'message', 'help', 'contact_groups_uuid', 'webhooks_uuid'] as const;

const EMPTY: KeywordInput = {
  keyword: '',
  message: '',
  help: '',
  add_contact_to_group: false,
  call_webhook: false,
  contact_groups_uuid: [],
  webhooks_uuid: [],
};

interface KeywordFormProps {
  defaultValues?: KeywordInput;
  contactGroups: readonly PickerOption[];
  webhooks: readonly PickerOption[];
  submitLabel: string;
  /** Saves the keyword; a rejection carrying 422 field errors shows them on the fields. */
  onSubmit: (input: KeywordInput) => Promise<unknown>;
  onCancel?: () => void;
}

export function KeywordForm({ defaultValues = EMPTY, contactGroups, webhooks, submitLabel, onSubmit, onCancel }: KeywordFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    control,
    trigger,
    formState: { errors, isSubmitting },
  } = useForm<KeywordFormValues, unknown, KeywordInput>({ resolver: zodResolver(KeywordInputSchema), defaultValues });
  const addsToGroups = useWatch({ control, name: 'add_contact_to_group' });
  const callsWebhooks = useWatch({ control, name: 'call_webhook' });

  const submit = handleSubmit(async (input) => {
    try {
      // A switched-off option keeps no targets, so what is saved is what the form shows.
      await onSubmit({
        ...input,
        contact_groups_uuid: input.add_contact_to_group ? input.contact_groups_uuid : [],
        webhooks_uuid: input.call_webhook ? input.webhooks_uuid : [],
      });
    } catch (error) {
      applyServerFieldErrors(error, FIELDS, setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg" maw={560}>
        <TextInput
          label="Keyword"
          description="One word of letters and digits, matched in any case. STOP and the other opt-out words are reserved."
          placeholder="e.g. OFFERS"
          autoComplete="off"
          withAsterisk
          data-autofocus
          error={errors.keyword?.message}
          {...register('keyword')}
        />
        <Textarea
          label="Reply message"
          description="Sent back to the number that texted the keyword; leave empty to send no reply."
          autosize
          minRows={3}
          error={errors.message?.message}
          {...register('message')}
        />
        <TextInput label="Help" description="A note for your team about what the keyword is for." autoComplete="off" error={errors.help?.message} {...register('help')} />
        <Stack gap="xs">
          <Controller
            control={control}
            name="add_contact_to_group"
            render={({ field: { value, onChange, ...field } }) => (
              <Switch
                {...field}
                checked={value ?? false}
                onChange={(event) => {
                  onChange(event.currentTarget.checked);
                  // The rule is shown as soon as the option is on without a target (and cleared when it is off).
                  void trigger('contact_groups_uuid');
                }} label="Add the number to groups" />
            )}
          />
          {addsToGroups && (
            <Controller
              control={control}
              name="contact_groups_uuid"
              render={({ field: { value, onChange, ...field } }) => (
                <MultiSelect
                  {...field}
                  label="Contact groups"
                  placeholder={contactGroups.length ? 'Pick groups' : 'No contact groups yet'}
                  data={contactGroups}
                  value={value ?? []}
                  onChange={(uuids) => {
                    onChange(uuids);
                    void trigger('contact_groups_uuid');
                  }}
                  searchable
                  nothingFoundMessage="No group by that name"
                  error={errors.contact_groups_uuid?.message}
                />
              )}
            />
          )}
        </Stack>
        <Stack gap="xs">
          <Controller
            control={control}
            name="call_webhook"
            render={({ field: { value, onChange, ...field } }) => (
              <Switch
                {...field}
                checked={value ?? false}
                onChange={(event) => {
                  onChange(event.currentTarget.checked);
                  // The rule is shown as soon as the option is on without a target (and cleared when it is off).
                  void trigger('webhooks_uuid');
                }} label="Call webhooks" />
            )}
          />
          {callsWebhooks && (
            <Controller
              control={control}
              name="webhooks_uuid"
              render={({ field: { value, onChange, ...field } }) => (
                <MultiSelect
                  {...field}
                  label="Webhooks"
                  placeholder={webhooks.length ? 'Pick webhooks' : 'No webhooks yet'}
                  data={webhooks}
                  value={value ?? []}
                  onChange={(uuids) => {
                    onChange(uuids);
                    void trigger('webhooks_uuid');
                  }}
                  searchable
                  nothingFoundMessage="No webhook by that name"
                  error={errors.webhooks_uuid?.message}
                />
              )}
            />
          )}
        </Stack>
        <Group gap="sm">
          <Button type="submit" loading={isSubmitting}>
            {submitLabel}
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={isSubmitting}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
