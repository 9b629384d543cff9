import { Stack, Text, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { isApiError } from '../../api/api-error';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { applyServerFieldErrors } from '../../lib/server-field-errors';

const OptOutRemovalSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'Say why: the reason is kept in the opt-out history and the audit log.')
    .max(500, 'The reason may not be greater than 500 characters.'),
});
type OptOutRemovalValues = z.infer<typeof OptOutRemovalSchema>;

interface OptOutRemovalFormProps {
  /** What leaves default_optouts, in a sentence. */
  message: ReactNode;
  submitLabel: string;
  /** Removes the numbers with the reason; a rejection carrying 422 field errors shows them on the field. */
  onSubmit: (reason: string) => Promise<unknown>;
  onCancel: () => void;
}

/**
 * Taking a number out of default_optouts lets campaigns reach it again: it asks for a reason, which
 * the service keeps with the opt-in and in the audit log.
 */
export function OptOutRemovalForm({ message, submitLabel, onSubmit, onCancel }: OptOutRemovalFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<OptOutRemovalValues>({ resolver: zodResolver(OptOutRemovalSchema), defaultValues: { reason: '' } });

  const submit = handleSubmit(async ({ reason }) => {
    try {
      await onSubmit(reason);
    } catch (error) {
      const onField = applyServerFieldErrors(error, ['reason'], setError);
      if (!onField) setError('root', { type: 'server', message: isApiError(error) ? error.message : 'The numbers could not be removed.' });
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">{message}</Text>
        <Textarea
          label="Reason"
          description="For example: the customer asked by phone to receive our messages again."
          withAsterisk
          autosize
          minRows={2}
          data-autofocus
          error={errors.reason?.message}
          {...register('reason')}
        />
        <FormError message={errors.root?.message} />
        <FormActions submitLabel={submitLabel} submitting={isSubmitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
