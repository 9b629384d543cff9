import { Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { WebhookInput } from '../../../shared/contract';
import { applyServerErrors } from '../../lib/server-field-errors';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { HeadersEditor } from '../../components/headers-editor';
import { rowsFromHeaders } from '../../lib/header-rows';
import { toWebhookInput, WebhookFormSchema, type WebhookFormValues } from './webhook-form-schema';

interface WebhookFormProps {
  defaultValues?: WebhookInput;
  submitLabel: string;
  /** Saves the webhook; a rejection carrying 422 field errors shows them on the fields. */
  onSubmit: (input: WebhookInput) => Promise<unknown>;
  onCancel?: () => void;
}

const EMPTY: WebhookInput = { name: '', url: '', headers: {} };

export function WebhookForm({ defaultValues = EMPTY, submitLabel, onSubmit, onCancel }: WebhookFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<WebhookFormValues>({
    resolver: zodResolver(WebhookFormSchema),
    defaultValues: { name: defaultValues.name, url: defaultValues.url, headers: rowsFromHeaders(defaultValues.headers) },
  });

  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(toWebhookInput(values));
    } catch (error) {
      // Header errors are keyed by header name, not by row: they are shown above the buttons.
      applyServerErrors(error, ['name', 'url'], setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          placeholder="e.g. CRM sign-ups"
          autoComplete="off"
          withAsterisk
          data-autofocus
          error={errors.name?.message}
          {...register('name')}
        />
        <TextInput
          label="URL"
          description="Herald POSTs a signed JSON body here when a keyword calls the webhook."
          placeholder="https://example.com/hooks/herald"
          autoComplete="off"
          withAsterisk
          error={errors.url?.message}
          {...register('url')}
        />
        <HeadersEditor control={control} register={register} errors={errors.headers} />
        <FormError message={errors.root?.message} />
        <FormActions submitLabel={submitLabel} submitting={isSubmitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
