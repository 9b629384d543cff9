import { Checkbox, Fieldset, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { SignupPageInputSchema } from '../../../shared/contract';
import { isApiError } from '../../api/client';
import { FormActions } from '../../components/form-actions';
import { applyServerErrors } from '../../lib/server-field-errors';

type SignupPageFormValues = z.input<typeof SignupPageInputSchema>;
type SignupPageFormOutput = z.output<typeof SignupPageInputSchema>;

const FIELDS = ['slug', 'enabled', 'heading', 'consent_text', 'frequency_text', 'group_uuid', 'ask_first_name'] as const;

export const EMPTY_SIGNUP_PAGE: SignupPageFormValues = {
  slug: '',
  enabled: false,
  heading: '',
  consent_text: '',
  frequency_text: '',
  group_uuid: '',
  ask_first_name: false,
};

interface SignupPageFormProps {
  defaultValues: SignupPageFormValues;
  /** The team's contact groups a confirmed number may join (the opt-out list left out). */
  groups: readonly { value: string; label: string }[];
  /** Where the page is, for the slug's hint: PUBLIC_URL. */
  origin: string;
  /** Admins only: everyone else sees the settings, disabled. */
  canChange: boolean;
  /** Saves the page; a rejection carrying 422 field errors (or a 409 for a taken slug) shows them. */
  onSubmit: (input: SignupPageFormOutput) => Promise<unknown>;
}

export function SignupPageForm({ defaultValues, groups, origin, canChange, onSubmit }: SignupPageFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<SignupPageFormValues, unknown, SignupPageFormOutput>({ resolver: zodResolver(SignupPageInputSchema), defaultValues });

  const submit = handleSubmit(async (input) => {
    try {
      await onSubmit(input);
    } catch (error) {
      // A slug another team holds is a 409, not a 422: its message belongs beside the address all the same.
      if (isApiError(error) && error.status === 409) setError('slug', { type: 'server', message: error.message }, { shouldFocus: true });
      else applyServerErrors(error, FIELDS, setError);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Fieldset variant="unstyled" disabled={!canChange} aria-label="Sign-up page settings">
        <Stack gap="md" maw={640}>
          <Controller
            control={control}
            name="enabled"
            render={({ field }) => (
              <Switch
                label="The page is on"
                description="Off, visitors see “Page not found”."
                checked={field.value ?? false}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
                ref={field.ref}
              />
            )}
          />
          <TextInput
            label="Address"
            description={`Your page is at ${origin}/join/<address>: 3–40 lowercase letters, digits or hyphens.`}
            placeholder="e.g. acme-texts"
            autoComplete="off"
            withAsterisk
            error={errors.slug?.message}
            {...register('slug')}
          />
          <TextInput label="Heading" placeholder="e.g. Texts from Acme" withAsterisk error={errors.heading?.message} {...register('heading')} />
          <Textarea
            label="Consent text"
            description="What the visitor agrees to, shown right above the button and kept with every sign-up as proof."
            placeholder="e.g. I agree to receive recurring marketing texts from Acme at this number."
            autosize
            minRows={3}
            withAsterisk
            error={errors.consent_text?.message}
            {...register('consent_text')}
          />
          <TextInput
            label="Message frequency"
            description="Shown with the consent text, followed by “Msg & data rates may apply; reply STOP to opt out.”"
            placeholder="e.g. Up to 4 msgs/week"
            withAsterisk
            error={errors.frequency_text?.message}
            {...register('frequency_text')}
          />
          <Controller
            control={control}
            name="group_uuid"
            render={({ field }) => (
              <Select
                label="Group a confirmed number joins"
                description="A number joins it once it replies YES."
                placeholder="Choose a contact group"
                data={groups as { value: string; label: string }[]}
                searchable
                withAsterisk
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                ref={field.ref}
                error={errors.group_uuid?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="ask_first_name"
            render={({ field }) => (
              <Checkbox
                label="Ask for a first name (optional for the visitor)"
                checked={field.value ?? false}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
                ref={field.ref}
              />
            )}
          />
          {canChange && <FormActions submitLabel="Save sign-up page" submitting={isSubmitting} />}
        </Stack>
      </Fieldset>
    </form>
  );
}
