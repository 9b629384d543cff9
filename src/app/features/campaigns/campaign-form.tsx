import { Autocomplete, Divider, Fieldset, Grid, Group, MultiSelect, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import { Controller, get, useForm, useWatch } from 'react-hook-form';
import { SENDER_MAX, SENDER_MIN, type CampaignInput } from '../../../shared/contract';
import { isApiError } from '../../api/api-error';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { CampaignLockAlert } from './campaign-lock-alert';
import { campaignErrors, campaignResolver, liveTimeErrors, type CampaignFormValues } from './campaign-form-values';
import { PauseEditor } from './pause-editor';
import { RecipientEstimate } from './recipient-estimate';
import { DURATIONS, shiftTimestamp } from '../../lib/service-zone';
import { SendingTimeline } from './sending-timeline';
import { ZonedDateTimeInput } from '../../components/zoned-date-time-field';

export interface CampaignTemplateOption {
  uuid: string;
  name: string;
  sender: string;
}

export interface GroupOption {
  value: string;
  label: string;
}

/** Fields checked by the shared time rules: their messages follow every keystroke, not only the field typed in. */
const TIME_FIELD = /^(scheduled_send_date|expiry_date|scheduled_finish_date|pauses)(\.|$)/;

interface CampaignFormProps {
  defaultValues: CampaignFormValues;
  /** The service's zone (APP_TIMEZONE) every time is read and written in. */
  timeZone: string;
  templates: readonly CampaignTemplateOption[];
  senders: readonly string[];
  groups: readonly GroupOption[];
  /** The picked template as it will be sent. */
  renderTemplatePreview: (templateUuid: string, sender: string) => ReactNode;
  /** Set when the campaign is locked: the form is read-only and says why. */
  lockReason?: string;
  lockMessage?: string;
  /** True when the role may not change campaigns: the form only shows the campaign (the page says why). */
  readOnly?: boolean;
  submitLabel: string;
  /** Saves the campaign; a rejection carrying 422 field errors shows them on the fields (`pauses.1` too). */
  onSubmit: (input: CampaignInput) => Promise<unknown>;
  onCancel?: () => void;
}

export function CampaignForm({
  defaultValues,
  timeZone,
  templates,
  senders,
  groups,
  renderTemplatePreview,
  lockReason,
  lockMessage,
  readOnly = false,
  submitLabel,
  onSubmit,
  onCancel,
}: CampaignFormProps) {
  const locked = lockReason !== undefined;
  const frozen = locked || readOnly;
  const resolver = useMemo(() => campaignResolver(timeZone), [timeZone]);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    control,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<CampaignFormValues, unknown, CampaignInput>({ resolver, mode: 'onChange', defaultValues });
  const values = useWatch({ control }) as CampaignFormValues;
  const ruleErrors = useMemo(() => (isSubmitted ? campaignErrors(values, timeZone) : liveTimeErrors(values, timeZone)), [values, timeZone, isSubmitted]);

  const errorOf = (field: string): string | undefined => {
    const error = get(errors, field) as { type?: string; message?: string } | undefined;
    if (error?.type === 'server' && error.message) return error.message;
    if (TIME_FIELD.test(field)) return ruleErrors[field];
    return error?.message;
  };

  const submit = handleSubmit(async (input) => {
    try {
      await onSubmit(input);
    } catch (error) {
      if (!isApiError(error)) return;
      if (error.status === 423) return setError('root', { type: 'server', message: error.message });
      let focused = false;
      for (const [field, [message]] of Object.entries(error.fieldErrors)) {
        if (!message) continue;
        setError(field as keyof CampaignFormValues, { type: 'server', message }, { shouldFocus: !focused });
        focused = true;
      }
    }
  });

  const nextPauseStart = () => {
    const { pauses, scheduled_send_date } = getValues();
    const last = pauses.at(-1)?.end_at;
    return last ? shiftTimestamp(last, DURATIONS.hour, timeZone) || last : shiftTimestamp(scheduled_send_date, DURATIONS.hour, timeZone);
  };

  const excludedOptions = groups.map((group) => ({ ...group, disabled: values.included_contact_groups.includes(group.value) }));

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {locked && <CampaignLockAlert reason={lockReason} serviceMessage={lockMessage} />}
            <Fieldset variant="unstyled" disabled={frozen} p={0} m={0}>
              <Stack gap="md">
                <TextInput
                  label="Name"
                  description="Shown in lists and reports."
                  autoComplete="off"
                  withAsterisk
                  data-autofocus
                  error={errorOf('name')}
                  {...register('name')}
                />
                <Controller
                  control={control}
                  name="template_uuid"
                  render={({ field }) => (
                    <Select
                      ref={field.ref}
                      label="Template"
                      description="The message every recipient receives."
                      placeholder="Pick a template"
                      data={templates.map((template) => ({ value: template.uuid, label: template.name }))}
                      value={field.value || null}
                      onChange={(uuid) => {
                        field.onChange(uuid ?? '');
                        const picked = templates.find((template) => template.uuid === uuid);
                        // The template's own sender is the likely one; a sender already chosen is kept.
                        if (picked && !getValues('sender')) setValue('sender', picked.sender, { shouldValidate: true });
                      }}
                      onBlur={field.onBlur}
                      searchable
                      nothingFoundMessage="No template of that name"
                      withAsterisk
                      error={errorOf('template_uuid')}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name="sender"
                  render={({ field }) => (
                    <Autocomplete
                      {...field}
                      label="Sender"
                      description={`Pick one of your senders or type one: ${SENDER_MIN} to ${SENDER_MAX} letters, digits, spaces or . - _ &`}
                      placeholder="e.g. HeraldShop"
                      data={[...senders]}
                      withAsterisk
                      autoComplete="off"
                      error={errorOf('sender')}
                      rightSection={
                        <Text size="xs" c={field.value.length > SENDER_MAX ? 'red' : 'dimmed'} aria-hidden>
                          {field.value.length}/{SENDER_MAX}
                        </Text>
                      }
                      rightSectionWidth={48}
                      rightSectionPointerEvents="none"
                    />
                  )}
                />
                <Controller
                  control={control}
                  name="included_contact_groups"
                  render={({ field }) => (
                    <MultiSelect
                      ref={field.ref}
                      label="Send to these groups"
                      description="Everyone in any of them receives the message once, however many groups they are in."
                      placeholder={field.value.length ? undefined : 'Pick groups by name'}
                      data={[...groups]}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      searchable
                      nothingFoundMessage="No group of that name"
                      withAsterisk
                      error={errorOf('included_contact_groups')}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name="excluded_contact_groups"
                  render={({ field }) => (
                    <MultiSelect
                      ref={field.ref}
                      label="Leave out these groups"
                      description="Their numbers are skipped. Numbers in default_optouts always are."
                      placeholder={field.value.length ? undefined : 'Optional'}
                      data={excludedOptions}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      searchable
                      nothingFoundMessage="No group of that name"
                      error={errorOf('excluded_contact_groups')}
                    />
                  )}
                />
                <Divider label="When" labelPosition="left" />
                <Group grow align="flex-start">
                  <ZonedDateTimeInput
                    control={control}
                    name="scheduled_send_date"
                    label="Send at"
                    description="When sending starts."
                    withAsterisk
                    timeZone={timeZone}
                    error={errorOf('scheduled_send_date')}
                    readOnly={frozen}
                  />
                  <ZonedDateTimeInput
                    control={control}
                    name="expiry_date"
                    label="Expires at"
                    description="Unsent messages drop then."
                    withAsterisk
                    timeZone={timeZone}
                    error={errorOf('expiry_date')}
                    readOnly={frozen}
                  />
                </Group>
                <Switch
                  label="Throttle the sending"
                  description="Spread the messages evenly until a finish date, with optional pauses."
                  {...register('throttled')}
                />
                {values.throttled && (
                  <Stack gap="md" pl="md" style={{ borderLeft: '3px solid var(--mantine-color-indigo-2)' }}>
                    <ZonedDateTimeInput
                      control={control}
                      name="scheduled_finish_date"
                      label="Finish by"
                      description="The last message goes by then; not after the expiry."
                      withAsterisk
                      timeZone={timeZone}
                      error={errorOf('scheduled_finish_date')}
                      readOnly={frozen}
                    />
                    <PauseEditor control={control} timeZone={timeZone} errorOf={errorOf} nextStart={nextPauseStart} readOnly={frozen} />
                    <SendingTimeline send={values.scheduled_send_date} finish={values.scheduled_finish_date} pauses={values.pauses} timeZone={timeZone} />
                  </Stack>
                )}
              </Stack>
            </Fieldset>
            <FormError message={errors.root?.message} />
            {!frozen && <FormActions submitLabel={submitLabel} submitting={isSubmitting} onCancel={onCancel} />}
          </Stack>
        </form>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="md">
          <RecipientEstimate included={values.included_contact_groups} excluded={values.excluded_contact_groups} />
          {values.template_uuid ? (
            renderTemplatePreview(values.template_uuid, values.sender)
          ) : (
            <Text size="sm" c="dimmed">
              Pick a template to see the message.
            </Text>
          )}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
