import { Stack, Text, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useWatch } from 'react-hook-form';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { FormActions } from '../../components/form-actions';
import { automaticRepliesInput, automaticRepliesOf, automaticRepliesSchema, REPLIES, replyLengthHint, type AutomaticRepliesValues } from './automatic-replies';
import { useSettingsForm } from './use-settings-form';

const SERVER_FIELDS = { opt_out_reply: 'opt_out_reply', opt_in_reply: 'opt_in_reply', help_reply: 'help_reply' } as const;

interface AutomaticRepliesFormProps {
  settings: AutomaticRepliesValues;
  /** Saves the three replies; a rejection carrying a 422 shows it on the field it names. */
  onSubmit: (input: TeamSettingsInput) => Promise<TeamSettings>;
}

export function AutomaticRepliesForm({ settings, onSubmit }: AutomaticRepliesFormProps) {
  const {
    register,
    control,
    submit,
    cancel,
    formState: { errors, isSubmitting },
  } = useSettingsForm<AutomaticRepliesValues>({
    resolver: zodResolver(automaticRepliesSchema),
    initial: automaticRepliesOf(settings),
    valuesOf: automaticRepliesOf,
    inputOf: automaticRepliesInput,
    serverFields: SERVER_FIELDS,
    onSubmit,
  });
  const texts = useWatch({ control });

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
        <FormActions submitLabel="Save automatic replies" submitting={isSubmitting} onCancel={cancel} />
      </Stack>
    </form>
  );
}
