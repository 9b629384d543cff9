import { NumberInput, Radio, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useWatch } from 'react-hook-form';
import type { TeamSettings, TeamSettingsInput } from '../../../shared/contract';
import { FormActions } from '../../components/form-actions';
import { MAX_THRESHOLD, type ApprovalRule } from './approval-rule';
import { sendingSafetyInput, sendingSafetyOf, sendingSafetySchema, type SendingSafetyValues } from './sending-safety';
import { useSettingsForm } from './use-settings-form';

const CHOICES: { value: ApprovalRule; label: string; description: string }[] = [
  { value: 'none', label: 'No approval needed', description: 'Campaigns start at their send time.' },
  { value: 'every', label: 'Every campaign needs approval', description: 'Another admin approves each campaign before it starts.' },
  {
    value: 'threshold',
    label: 'Campaigns of at least N recipients',
    description: 'Smaller campaigns start at their send time; larger ones wait for another admin.',
  },
];

// The service names the approval number approval_threshold; here it is the N of the third choice.
const SERVER_FIELDS = { confirm_threshold: 'confirm_threshold', approval_threshold: 'threshold' } as const;

interface SendingSafetyFormProps {
  settings: Pick<TeamSettings, 'confirm_threshold' | 'approval_threshold'>;
  /** Saves the two thresholds; a rejection carrying a 422 shows it on the field it names. */
  onSubmit: (input: TeamSettingsInput) => Promise<TeamSettings>;
}

export function SendingSafetyForm({ settings, onSubmit }: SendingSafetyFormProps) {
  const {
    control,
    submit,
    cancel,
    formState: { errors, isSubmitting },
  } = useSettingsForm<SendingSafetyValues>({
    resolver: zodResolver(sendingSafetySchema),
    initial: sendingSafetyOf(settings),
    valuesOf: sendingSafetyOf,
    inputOf: sendingSafetyInput,
    serverFields: SERVER_FIELDS,
    onSubmit,
  });
  const rule = useWatch({ control, name: 'rule' });

  return (
    <form onSubmit={submit} noValidate aria-label="Sending safety">
      <Stack gap="lg">
        <Controller
          control={control}
          name="confirm_threshold"
          render={({ field }) => (
            <NumberInput
              ref={field.ref}
              label="Confirm the recipient count from"
              description="From this many recipients on, whoever schedules a campaign types its number of recipients to confirm it. 0: every campaign."
              placeholder="e.g. 1000"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
              withAsterisk
              allowDecimal={false}
              allowNegative={false}
              min={0}
              max={MAX_THRESHOLD}
              thousandSeparator=","
              rightSection="recipients"
              rightSectionWidth={90}
              rightSectionPointerEvents="none"
              error={errors.confirm_threshold?.message}
              maw={420}
            />
          )}
        />
        <Controller
          control={control}
          name="rule"
          render={({ field }) => (
            <Radio.Group
              label="Which campaigns wait for approval"
              description="A campaign that needs approval does not start until an admin other than the one who asked approves it. A new rule applies to campaigns created or edited from now on."
              value={field.value}
              onChange={(value) => field.onChange(value as ApprovalRule)}
            >
              <Stack gap="sm" mt="xs">
                {CHOICES.map((choice) => (
                  <Radio key={choice.value} value={choice.value} label={choice.label} description={choice.description} />
                ))}
              </Stack>
            </Radio.Group>
          )}
        />
        <Controller
          control={control}
          name="threshold"
          render={({ field }) => (
            <NumberInput
              ref={field.ref}
              label="N, the number of recipients"
              description={
                rule === 'threshold' ? 'Campaigns with at least this many recipients need approval.' : 'Choose “Campaigns of at least N recipients” to set it.'
              }
              placeholder="e.g. 1000"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
              disabled={rule !== 'threshold'}
              withAsterisk={rule === 'threshold'}
              allowDecimal={false}
              allowNegative={false}
              min={1}
              max={MAX_THRESHOLD}
              thousandSeparator=","
              error={errors.threshold?.message}
              maw={280}
              ml={{ base: 0, xs: 32 }}
            />
          )}
        />
        <FormActions submitLabel="Save sending safety" submitting={isSubmitting} onCancel={cancel} />
      </Stack>
    </form>
  );
}
