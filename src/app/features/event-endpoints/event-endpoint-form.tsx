import { Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { HeadersEditor } from '../../components/headers-editor';
import { rowsFromHeaders } from '../../lib/header-rows';
import { applyServerErrors } from '../../lib/server-field-errors';
import { EventEndpointFormSchema, toEventEndpointSettings, type EventEndpointFormValues, type EventEndpointSettings } from './event-endpoint-form-schema';
import { EventTypesPicker } from './event-types-picker';

interface EventEndpointFormProps {
  defaultValues?: EventEndpointSettings;
  submitLabel: string;
  /** Saves the endpoint; a rejection carrying 422 field errors shows them on the fields. */
  onSubmit: (settings: EventEndpointSettings) => Promise<unknown>;
  onCancel?: () => void;
}

const EMPTY: EventEndpointSettings = { url: '', description: '', events: [], headers: {} };

export function EventEndpointForm({ defaultValues = EMPTY, submitLabel, onSubmit, onCancel }: EventEndpointFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<EventEndpointFormValues>({
    resolver: zodResolver(EventEndpointFormSchema),
    defaultValues: { ...defaultValues, headers: rowsFromHeaders(defaultValues.headers) },
  });

  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(toEventEndpointSettings(values));
    } catch (error) {
      // An error in one event (`events.0`) goes on the picker; header errors are keyed by header name, not by row: they are shown above the buttons.
      applyServerErrors(error, ['url', 'description', 'events'], setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="URL"
          description="Herald POSTs each event here as signed JSON (Standard Webhooks)."
          placeholder="https://example.com/hooks/herald-events"
          autoComplete="off"
          withAsterisk
          data-autofocus
          error={errors.url?.message}
          {...register('url')}
        />
        <TextInput
          label="Description"
          description="What the endpoint is for, e.g. the system that receives the events."
          placeholder="e.g. CRM delivery receipts"
          autoComplete="off"
          error={errors.description?.message}
          {...register('description')}
        />
        <Controller
          control={control}
          name="events"
          render={({ field }) => <EventTypesPicker value={field.value} onChange={field.onChange} inputRef={field.ref} error={errors.events?.message} />}
        />
        <HeadersEditor control={control} register={register} errors={errors.headers} />
        <FormError message={errors.root?.message} />
        <FormActions submitLabel={submitLabel} submitting={isSubmitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
