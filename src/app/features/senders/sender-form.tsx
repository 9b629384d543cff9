import { Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { SENDER_MAX, SENDER_MIN, SenderInputSchema, type SenderInput } from '../../../shared/contract';
import { applyServerFieldErrors } from '../../lib/server-field-errors';
import { FormActions } from '../../components/form-actions';

interface SenderFormProps {
  defaultValues?: SenderInput;
  submitLabel: string;
  /** Saves the sender; a rejection carrying 422 field errors shows them on the fields. */
  onSubmit: (input: SenderInput) => Promise<unknown>;
  onCancel?: () => void;
}

export function SenderForm({ defaultValues = { sender: '' }, submitLabel, onSubmit, onCancel }: SenderFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<SenderInput>({
    resolver: zodResolver(SenderInputSchema),
    // The 3–11 rule is shown while typing, not only on submit.
    mode: 'onChange',
    defaultValues,
  });

  const submit = handleSubmit(async (input) => {
    try {
      await onSubmit(input);
    } catch (error) {
      applyServerFieldErrors(error, ['sender'], setError);
    }
  });

  const length = useWatch({ control, name: 'sender' }).length;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg" maw={480}>
        <TextInput
          label="Sender"
          description={`What handsets show as the originator: ${SENDER_MIN} to ${SENDER_MAX} letters, digits, spaces or . - _ &`}
          placeholder="e.g. HeraldShop"
          autoComplete="off"
          data-autofocus
          withAsterisk
          error={errors.sender?.message}
          rightSection={
            <Text size="xs" c={length > SENDER_MAX ? 'red' : 'dimmed'} aria-hidden>
              {length}/{SENDER_MAX}
            </Text>
          }
          rightSectionWidth={48}
          {...register('sender')}
        />
        <FormActions submitLabel={submitLabel} submitting={isSubmitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
