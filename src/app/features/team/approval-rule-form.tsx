import { Button, Group, NumberInput, Radio, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { TeamSettingsInput } from '../../../shared/contract';
import { isApiError } from '../../api/api-error';
import { approvalRuleOf, approvalRuleSchema, MAX_THRESHOLD, thresholdOf, type ApprovalRule, type ApprovalRuleValues } from './approval-rule';

const CHOICES: { value: ApprovalRule; label: string; description: string }[] = [
  { value: 'none', label: 'No approval needed', description: 'Campaigns start at their send time.' },
  { value: 'every', label: 'Every campaign needs approval', description: 'Another admin approves each campaign before it starts.' },
  {
    value: 'threshold',
    label: 'Campaigns of at least N recipients',
    description: 'Smaller campaigns start at their send time; larger ones wait for another admin.',
  },
];

interface ApprovalRuleFormProps {
  /** The team's `approval_threshold` as saved. */
  threshold: number | null;
  /** Saves the rule; a rejection carrying a 422 on approval_threshold shows it on the number. */
  onSubmit: (input: TeamSettingsInput) => Promise<unknown>;
}

export function ApprovalRuleForm({ threshold, onSubmit }: ApprovalRuleFormProps) {
  const {
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isSubmitting },
  } = useForm<ApprovalRuleValues>({ resolver: zodResolver(approvalRuleSchema), defaultValues: approvalRuleOf(threshold) });
  const rule = useWatch({ control, name: 'rule' });

  const submit = handleSubmit(async (values) => {
    const input = { approval_threshold: thresholdOf(values) };
    try {
      await onSubmit(input);
      reset(approvalRuleOf(input.approval_threshold));
    } catch (error) {
      // The service names the field approval_threshold; here it is the number of recipients.
      const [message] = isApiError(error) ? (error.fieldErrors.approval_threshold ?? []) : [];
      if (message) setError('threshold', { type: 'server', message }, { shouldFocus: true });
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Approval rule">
      <Stack gap="md">
        <Controller
          control={control}
          name="rule"
          render={({ field }) => (
            <Radio.Group label="Which campaigns wait for approval" value={field.value} onChange={(value) => field.onChange(value as ApprovalRule)}>
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
        <Group>
          <Button type="submit" loading={isSubmitting}>
            Save approval rule
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
