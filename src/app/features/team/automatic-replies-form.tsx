import { Stack, Text, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { FormActions } from '../../components/form-actions';
import { automaticRepliesInput, automaticRepliesOf, automaticRepliesSchema, REPLIES, replyLengthHint, type AutomaticRepliesValues } from './automatic-replies';
import { applySettingsErrors } from './settings-field-errors';

const SERVER_FIELDS = { opt_out_reply: 'opt_out_reply', opt_in_reply: 'opt_in_reply', help_reply: 'help_reply' } as const;

interface AutomaticRepliesFormProps {
  settings: AutomaticRepliesValues;
  /** Saves the three replies; a rejection carrying a 422 shows it on the field it names. */
  onSubmit: (input: TeamSettingsInput) => Promise<TeamSettings>;
}

export function AutomaticRepliesForm({ settings, onSubmit }: AutomaticRepliesFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<AutomaticRepliesValues>({ resolver: zodResolver(automaticRepliesSchema), defaultValues: automaticRepliesOf(settings) });
  const texts = useWatch({ control });

  const submit = handleSubmit(async (values) => {
    try {
      reset(automaticRepliesOf(await onSubmit(automaticRepliesInput(values))));
    } catch (error) {
      applySettingsErrors(error, SERVER_FIELDS, setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Automatic replies">
      <Stack gap="lg" maw={640}>
        {REPLIES.map(({ field, label, description }) => (
          <div key={field}>
            <Textarea label={label} description={description} autosize minRows={2} maxRows={8} error={errors[field]?.message} {...register(field)} />
            <Text size="xs" c="dimmed" mt={4} aria-live="polite" data-testid={`${field}-hint`}>
              {replyLengthHint(texts[field] ?? '')}
            </Text>
          </div>
        ))}
        <FormActions submitLabel="Save automatic replies" submitting={isSubmitting} onCancel={isDirty ? () => reset() : undefined} />
      </Stack>
    </form>
  );
}
