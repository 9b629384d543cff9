import { Stack, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { KeywordInputSchema, type KeywordInput } from '../../../shared/contract';
import { applyServerFieldErrors } from '../../lib/server-field-errors';
import { FormActions } from '../../components/form-actions';
import type { KeywordFormValues, PickerOption } from './keyword-form-values';
import { KeywordOption } from './keyword-option';

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
  /** Groups and webhooks that name the chosen ones whatever the pickers found (the first page, a saved keyword's older ones). */
  knownGroups?: readonly PickerOption[];
  knownWebhooks?: readonly PickerOption[];
  /** Each picker's text as the user types, for the page to search the service with; without it a picker filters what it was given. */
  onSearch?: { groups?: (text: string) => void; webhooks?: (text: string) => void };
  submitLabel: string;
  /** Saves the keyword; a rejection carrying 422 field errors shows them on the fields. */
  onSubmit: (input: KeywordInput) => Promise<unknown>;
  onCancel?: () => void;
}

export function KeywordForm({
  defaultValues = EMPTY,
  contactGroups,
  webhooks,
  knownGroups,
  knownWebhooks,
  onSearch,
  submitLabel,
  onSubmit,
  onCancel,
}: KeywordFormProps) {
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
        <TextInput
          label="Help"
          description="A note for your team about what the keyword is for."
          autoComplete="off"
          error={errors.help?.message}
          {...register('help')}
        />
        <KeywordOption
          control={control}
          trigger={trigger}
          option="add_contact_to_group"
          targets="contact_groups_uuid"
          switchLabel="Add the number to groups"
          pickerLabel="Contact groups"
          placeholder={contactGroups.length ? 'Pick groups' : 'No contact groups yet'}
          nothingFound="No group by that name"
          data={contactGroups}
          known={knownGroups}
          onSearch={onSearch?.groups}
          enabled={addsToGroups ?? false}
          error={errors.contact_groups_uuid?.message}
        />
        <KeywordOption
          control={control}
          trigger={trigger}
          option="call_webhook"
          targets="webhooks_uuid"
          switchLabel="Call webhooks"
          pickerLabel="Webhooks"
          placeholder={webhooks.length ? 'Pick webhooks' : 'No webhooks yet'}
          nothingFound="No webhook by that name"
          data={webhooks}
          known={knownWebhooks}
          onSearch={onSearch?.webhooks}
          enabled={callsWebhooks ?? false}
          error={errors.webhooks_uuid?.message}
        />
        <FormActions submitLabel={submitLabel} submitting={isSubmitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
