import { Group, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { VanityDomainInputSchema, type VanityDomainInput } from '../../../shared/contract';
import { applyServerFieldErrors } from '../../lib/server-field-errors';
import { FormActions } from '../../components/form-actions';

interface VanityDomainFormProps {
  defaultValues?: VanityDomainInput;
  submitLabel: string;
  /** Saves the domain; a rejection carrying 422 field errors shows them on the field. */
  onSubmit: (input: VanityDomainInput) => Promise<unknown>;
  onCancel?: () => void;
  /** Empties the field after a successful save (the add form stays on the page). */
  resetOnSuccess?: boolean;
}

export function VanityDomainForm({ defaultValues = { domain: '' }, submitLabel, onSubmit, onCancel, resetOnSuccess }: VanityDomainFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<VanityDomainInput>({ resolver: zodResolver(VanityDomainInputSchema), defaultValues });

  const submit = handleSubmit(async (input) => {
    try {
      await onSubmit(input);
      if (resetOnSuccess) reset();
    } catch (error) {
      applyServerFieldErrors(error, ['domain'], setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-start" gap="sm">
        <TextInput
          label="Domain"
          description="Its DNS must point at Herald; links become https://<domain>/<code>"
          placeholder="e.g. go.example.com"
          autoComplete="off"
          withAsterisk
          data-autofocus
          error={errors.domain?.message}
          style={{ flex: 1, minWidth: 220, maxWidth: 420 }}
          {...register('domain')}
        />
        <FormActions mt={46} submitLabel={submitLabel} submitting={isSubmitting} onCancel={onCancel} />
      </Group>
    </form>
  );
}
