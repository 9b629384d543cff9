import { Select, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { LinkInputSchema, type LinkInput } from '../../../shared/contract';
import type { VanityDomain } from '../../api/gen/types.gen';
import { applyServerFieldErrors } from '../../lib/server-field-errors';
import { FormActions } from '../../components/form-actions';

const FIELDS = ['name', 'destination', 'vanity_domain_uuid'] as const;

interface LinkFormProps {
  defaultValues: LinkInput;
  vanityDomains: readonly VanityDomain[];
  submitLabel: string;
  /** Saves the link; a rejection carrying 422 field errors shows them on the fields. */
  onSubmit: (input: LinkInput) => Promise<unknown>;
  onCancel: () => void;
}

export function LinkForm({ defaultValues, vanityDomains, submitLabel, onSubmit, onCancel }: LinkFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<LinkInput>({ resolver: zodResolver(LinkInputSchema), defaultValues });

  const submit = handleSubmit(async (input) => {
    try {
      await onSubmit(input);
    } catch (error) {
      applyServerFieldErrors(error, FIELDS, setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          description="Write ::NAME:: in the message where the short link goes. Letters, digits, _ and -."
          placeholder="e.g. SALE"
          autoComplete="off"
          withAsterisk
          data-autofocus
          error={errors.name?.message}
          {...register('name')}
        />
        <TextInput
          label="Destination"
          description="Where the short link takes the recipient."
          placeholder="https://shop.example.com/sale"
          autoComplete="off"
          withAsterisk
          error={errors.destination?.message}
          {...register('destination')}
        />
        <Controller
          control={control}
          name="vanity_domain_uuid"
          render={({ field }) => (
            <Select
              {...field}
              label="Vanity domain"
              description="The domain the short link is made on."
              data={vanityDomains.map((domain) => ({
                value: domain.uuid,
                label: domain.is_default ? `${domain.url_base} (Herald's own domain)` : domain.url_base,
              }))}
              allowDeselect={false}
              withAsterisk
              error={errors.vanity_domain_uuid?.message}
            />
          )}
        />
        <FormActions submitLabel={submitLabel} submitting={isSubmitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
