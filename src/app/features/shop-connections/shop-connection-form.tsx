import { PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { SHOP_PLATFORMS, type ShopConnectionInput } from '../../../shared/contract';
import { isApiError } from '../../api/api-error';
import { FormActions } from '../../components/form-actions';
import { PLATFORM_HELP, PLATFORM_LABELS } from './shop-platforms';

const schema = z.object({
  name: z.string().trim().min(1, 'Give the shop a name.').max(255, 'The name may not be greater than 255 characters.'),
  platform: z.enum(SHOP_PLATFORMS),
  secret: z.string().trim().min(1, 'The secret is required: Herald checks every order’s signature with it.').max(4096),
});
type Values = z.infer<typeof schema>;

/** A new shop connection: its name, platform and the secret its webhooks are signed with. */
export function ShopConnectionForm({ onSubmit, onCancel }: { onSubmit: (input: ShopConnectionInput) => Promise<unknown>; onCancel: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { name: '', platform: 'shopify', secret: '' } });
  const platform = useWatch({ control, name: 'platform' });

  const submit = handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      if (!isApiError(error)) return;
      for (const field of ['name', 'platform', 'secret'] as const) {
        const message = error.fieldErrors[field]?.[0];
        if (message) setError(field, { type: 'server', message });
      }
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Connect a shop">
      <Stack gap="md">
        <TextInput label="Name" placeholder="e.g. Acme store" withAsterisk error={errors.name?.message} data-autofocus {...register('name')} />
        <Controller
          control={control}
          name="platform"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="shop-platform-label">
                Platform
              </Text>
              <SegmentedControl
                aria-labelledby="shop-platform-label"
                value={field.value}
                onChange={(value) => field.onChange(value)}
                data={SHOP_PLATFORMS.map((value) => ({ value, label: PLATFORM_LABELS[value] }))}
              />
            </Stack>
          )}
        />
        <PasswordInput
          label="Webhook secret"
          description={PLATFORM_HELP[platform].secret}
          withAsterisk
          autoComplete="off"
          error={errors.secret?.message}
          {...register('secret')}
        />
        <FormActions submitLabel="Connect shop" submitting={isSubmitting} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
