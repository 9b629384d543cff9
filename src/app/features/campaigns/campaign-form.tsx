import { Button, Divider, Fieldset, Grid, Group, Input, SegmentedControl, SimpleGrid, Stack, Switch, Text, type SwitchProps, TextInput } from '@mantine/core';
import { useMemo, useState, type ReactNode } from 'react';
import { Controller, get, useForm, useWatch, type Control } from 'react-hook-form';
import type { CampaignInput } from '../../../shared/contract';
import { isApiError } from '../../api/api-error';
import { FormError } from '../../components/form-error';
import { ServerSearchMultiSelect, ServerSearchSelect } from '../../components/server-search';
import { ZonedDateTimeInput } from '../../components/zoned-date-time-field';
import { SenderField } from '../../components/sender-field';
import { CampaignLockAlert } from './campaign-lock-alert';
import {
  campaignErrors,
  campaignResolver,
  derivedTimes,
  liveTimeErrors,
  PAST_SEND_MESSAGE,
  sendTimeIsPast,
  timesFollowingSend,
  type CampaignFormValues,
} from './campaign-form-values';
import { PauseEditor } from './pause-editor';
import { AbTestEditor } from './ab-test-editor';
import { proposePause } from './pause-proposal';
import { RecipientEstimate } from './recipient-estimate';
import { CampaignSegmentPickers, type CampaignSegmentOptions } from './campaign-segment-pickers';
import { serviceTimestamp } from '../../lib/service-zone';
import { SendingTimeline } from './sending-timeline';
import type { QuietHours } from '../../../shared/schedule/quiet-hours';

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
  /** Groups found for "Leave out these groups" (it searches on its own); `groups` when absent. */
  excludedGroups?: readonly GroupOption[];
  /** Templates and groups that name the chosen ones whatever the pickers found: the first page, a saved campaign's older ones. */
  knownTemplates?: readonly CampaignTemplateOption[];
  knownGroups?: readonly GroupOption[];
  /** Each picker's text as the user types, for the page to search the service with; without it a picker filters what it was given. */
  onSearch?: Partial<Record<'template' | 'sender' | 'included' | 'excluded' | 'includedSegments' | 'excludedSegments', (text: string) => void>>;
  /**
   * Issue 35: the team's segments found for each segment picker, and those that name the chosen ones
   * whatever was found; absent: no segment pickers.
   */
  segments?: CampaignSegmentOptions;
  /** The picked template as it will be sent. */
  renderTemplatePreview: (templateUuid: string, sender: string) => ReactNode;
  /** Set when the campaign is locked: the form is read-only and says why. */
  lockReason?: string;
  lockMessage?: string;
  /** True when the role may not change campaigns: the form only shows the campaign (the page says why). */
  readOnly?: boolean;
  /** Admins may send through the team's quiet hours: the switch shows only for them. */
  canIgnoreQuietHours?: boolean;
  /** The team's quiet hours and zone (null when off), drawn on the throttled timeline. */
  quietHours?: { hours: QuietHours; zone: string } | null;
  /** The main action's label: "Review and schedule" for a new campaign or a draft, "Save changes" for a scheduled one. */
  scheduleLabel: string;
  /** Schedules (or keeps scheduled) the campaign, `is_draft: false`; a rejection carrying 422 field errors shows them on the fields (`pauses.1` too). */
  onSchedule: (input: CampaignInput) => Promise<unknown>;
  /** The secondary action's label ("Save draft", or "Move back to drafts" for a scheduled campaign). */
  draftLabel?: string;
  /** Saves it as a draft (`is_draft: true`), which is never sent; absent: no such action. */
  onSaveDraft?: (input: CampaignInput) => Promise<unknown>;
  onCancel?: () => void;
  /** Below the recipients and the message: what the audience and the template give (the coverage). */
  aside?: (values: CampaignFormValues) => ReactNode;
}

type Intent = 'schedule' | 'draft';

const NO_TEMPLATES: readonly CampaignTemplateOption[] = [];

/**
 * A switch bound to a boolean of the form. Controlled: Mantine's Switch keeps its own checked state,
 * so a registered (uncontrolled) one showed a saved `true` as off, to the eye and to screen readers.
 */
function BooleanSwitch({
  control,
  name,
  onToggled,
  ...props
}: {
  control: Control<CampaignFormValues, unknown, CampaignInput>;
  name: 'throttled' | 'ignore_quiet_hours' | 'local_time';
  /** Called after a person flipped it. */
  onToggled?: (checked: boolean) => void;
} & Omit<SwitchProps, 'checked' | 'onChange' | 'name'>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Switch
          {...props}
          ref={field.ref}
          name={field.name}
          checked={field.value}
          onChange={(event) => {
            field.onChange(event.currentTarget.checked);
            onToggled?.(event.currentTarget.checked);
          }}
          onBlur={field.onBlur}
        />
      )}
    />
  );
}

export function CampaignForm({
  defaultValues,
  timeZone,
  templates,
  senders,
  groups,
  excludedGroups = groups,
  knownTemplates = NO_TEMPLATES,
  knownGroups,
  onSearch,
  segments,
  renderTemplatePreview,
  lockReason,
  lockMessage,
  readOnly = false,
  canIgnoreQuietHours = false,
  quietHours,
  scheduleLabel,
  onSchedule,
  draftLabel = 'Save draft',
  onSaveDraft,
  onCancel,
  aside,
}: CampaignFormProps) {
  const locked = lockReason !== undefined;
  const frozen = locked || readOnly;
  const [submittingIntent, setSubmittingIntent] = useState<Intent>();
  // Set when scheduling was refused for a past send time; the message goes once the time is fixed.
  const [pastRefused, setPastRefused] = useState(false);
  const resolver = useMemo(() => campaignResolver(timeZone), [timeZone]);
  // The expiry and the finish move with the send time until the marketer edits them (a saved campaign's: see timesFollowingSend).
  const [follows, setFollows] = useState(() => timesFollowingSend(defaultValues, timeZone));
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    setFocus,
    control,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<CampaignFormValues, unknown, CampaignInput>({ resolver, mode: 'onChange', defaultValues });
  const values = useWatch({ control }) as CampaignFormValues;
  const ruleErrors = useMemo(() => (isSubmitted ? campaignErrors(values, timeZone) : liveTimeErrors(values, timeZone)), [values, timeZone, isSubmitted]);
  // Days before today (in the service's zone) cannot be picked.
  const today = serviceTimestamp(timeZone).slice(0, 10);

  const errorOf = (field: string): string | undefined => {
    const error = get(errors, field) as { type?: string; message?: string } | undefined;
    if (error?.type === 'server' && error.message) return error.message;
    if (field === 'scheduled_send_date' && pastRefused && sendTimeIsPast(values, timeZone)) return ruleErrors[field] ?? PAST_SEND_MESSAGE;
    if (TIME_FIELD.test(field)) return ruleErrors[field];
    return error?.message;
  };

  /** Moves the send time, and with it the expiry and the finish that still follow it (they keep their distance from it). */
  const moveSend = (send: string) => {
    if (getValues('scheduled_send_date') !== send) setValue('scheduled_send_date', send, { shouldValidate: isSubmitted });
    const derived = derivedTimes(send, timeZone);
    if (derived.expiry_date === '') return;
    if (follows.expiry) setValue('expiry_date', derived.expiry_date, { shouldValidate: isSubmitted });
    if (follows.finish) setValue('scheduled_finish_date', derived.scheduled_finish_date, { shouldValidate: isSubmitted });
  };

  /** Throttling switched on: a finish never set (or still following) is derived from the send time. */
  const throttleToggled = (throttled: boolean) => {
    if (!throttled || !follows.finish) return;
    const { scheduled_finish_date } = derivedTimes(getValues('scheduled_send_date'), timeZone);
    if (scheduled_finish_date) setValue('scheduled_finish_date', scheduled_finish_date, { shouldValidate: isSubmitted });
  };

  const submitAs = (as: Intent) => {
    // "Send now" is the service's now at the moment of scheduling, not when the choice was made.
    if (getValues('send_now')) moveSend(serviceTimestamp(timeZone));
    // Only scheduling refuses a past send time: a draft may keep an old one until it is scheduled.
    const past = as === 'schedule' && sendTimeIsPast(getValues(), timeZone);
    setPastRefused(past);
    if (past) return setFocus('scheduled_send_date');
    setSubmittingIntent(as);
    void submit(as)().finally(() => setSubmittingIntent(undefined));
  };

  const submit = (as: Intent) =>
    handleSubmit(async (formInput) => {
      const input = { ...formInput, is_draft: as === 'draft' };
      try {
        await (as === 'draft' && onSaveDraft ? onSaveDraft(input) : onSchedule(input));
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

  const pauseProposal = () => {
    const { pauses, scheduled_send_date, scheduled_finish_date } = getValues();
    return proposePause(scheduled_send_date, scheduled_finish_date, pauses, timeZone);
  };

  const excludedOptions = excludedGroups.map((group) => ({ ...group, disabled: values.included_contact_groups.includes(group.value) }));
  const withSegments = values.included_segments.length > 0;
  const templateOption = ({ uuid, name }: CampaignTemplateOption) => ({ value: uuid, label: name });

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submitAs('schedule');
          }}
          noValidate
        >
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
                    <ServerSearchSelect
                      ref={field.ref}
                      label="Template"
                      description="The message every recipient receives."
                      placeholder="Pick a template"
                      data={templates.map(templateOption)}
                      known={knownTemplates.map(templateOption)}
                      onSearch={onSearch?.template}
                      value={field.value || null}
                      onChange={(uuid) => {
                        field.onChange(uuid ?? '');
                        const picked = [...templates, ...knownTemplates].find((template) => template.uuid === uuid);
                        // The template's own sender is the likely one; a sender already chosen is kept.
                        if (picked && !getValues('sender')) setValue('sender', picked.sender, { shouldValidate: true });
                      }}
                      onBlur={field.onBlur}
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
                    <SenderField
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      inputRef={field.ref}
                      name={field.name}
                      senders={senders}
                      onSearch={onSearch?.sender}
                      error={errorOf('sender')}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name="included_contact_groups"
                  render={({ field }) => (
                    <ServerSearchMultiSelect
                      ref={field.ref}
                      label="Send to these groups"
                      description="Everyone in any of them receives the message once, however many groups they are in."
                      placeholder={field.value.length ? undefined : 'Pick groups by name'}
                      data={groups}
                      known={knownGroups}
                      onSearch={onSearch?.included}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      nothingFoundMessage="No group of that name"
                      // Not needed when a segment is picked (issue 35: a campaign with only segments is valid).
                      withAsterisk={!withSegments}
                      error={errorOf('included_contact_groups')}
                    />
                  )}
                />
                <Controller
                  control={control}
                  name="excluded_contact_groups"
                  render={({ field }) => (
                    <ServerSearchMultiSelect
                      ref={field.ref}
                      label="Leave out these groups"
                      description="Their numbers are skipped. Numbers in default_optouts always are."
                      placeholder={field.value.length ? undefined : 'Optional'}
                      data={excludedOptions}
                      known={knownGroups}
                      onSearch={onSearch?.excluded}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      nothingFoundMessage="No group of that name"
                      error={errorOf('excluded_contact_groups')}
                    />
                  )}
                />
                {segments && (
                  <CampaignSegmentPickers
                    control={control}
                    segments={segments}
                    onSearch={onSearch}
                    includedError={errorOf('included_segments')}
                    excludedError={errorOf('excluded_segments')}
                  />
                )}
                <Divider label="When" labelPosition="left" />
                <Input.Wrapper
                  label="When to send"
                  id="campaign-send-mode"
                  description={values.send_now ? 'Sending starts as soon as you schedule it.' : 'Sending starts at the time you pick.'}
                >
                  <SegmentedControl
                    aria-labelledby="campaign-send-mode-label"
                    display="flex"
                    mt={4}
                    value={values.send_now ? 'now' : 'later'}
                    onChange={(mode) => {
                      setValue('send_now', mode === 'now');
                      if (mode === 'now') moveSend(serviceTimestamp(timeZone));
                    }}
                    data={[
                      { value: 'now', label: 'Send now' },
                      { value: 'later', label: 'Schedule for later' },
                    ]}
                    readOnly={frozen}
                  />
                </Input.Wrapper>
                {/* Side by side while both fit whole (“2030-07-01 09:00”), else one above the other. */}
                <SimpleGrid minColWidth="min(13rem, 100%)" autoFlow="auto-fit" spacing="md" verticalSpacing="md">
                  {!values.send_now && (
                    <ZonedDateTimeInput
                      control={control}
                      name="scheduled_send_date"
                      label="Send at"
                      description="When sending starts."
                      withAsterisk
                      timeZone={timeZone}
                      minDate={frozen ? undefined : today}
                      error={errorOf('scheduled_send_date')}
                      readOnly={frozen}
                      onEdited={moveSend}
                    />
                  )}
                  <ZonedDateTimeInput
                    control={control}
                    name="expiry_date"
                    label="Expires at"
                    description={follows.expiry ? 'Unsent messages drop then; moves with the send time until you change it.' : 'Unsent messages drop then.'}
                    withAsterisk
                    timeZone={timeZone}
                    minDate={frozen ? undefined : today}
                    error={errorOf('expiry_date')}
                    readOnly={frozen}
                    onEdited={() => setFollows((current) => ({ ...current, expiry: false }))}
                  />
                </SimpleGrid>
                <BooleanSwitch
                  control={control}
                  name="local_time"
                  label="Send at each recipient's local time"
                  description={
                    values.throttled
                      ? 'Not with throttling: each zone gets its messages at its own time.'
                      : 'The send time is read in each recipient’s own time zone (from their number): the first zone gets it first, the last zone last, all before the expiry.'
                  }
                  disabled={values.throttled || frozen}
                  error={errorOf('local_time')}
                />
                <BooleanSwitch
                  control={control}
                  name="throttled"
                  label="Throttle the sending"
                  description="Spread the messages evenly until a finish date, with optional pauses."
                  onToggled={throttleToggled}
                />
                {values.throttled && (
                  <Stack gap="md" pl="md" style={{ borderLeft: '3px solid var(--mantine-color-indigo-2)' }}>
                    <ZonedDateTimeInput
                      control={control}
                      name="scheduled_finish_date"
                      label="Finish by"
                      description={
                        follows.finish
                          ? 'The last message goes by then (not after the expiry); moves with the send time until you change it.'
                          : 'The last message goes by then; not after the expiry.'
                      }
                      withAsterisk
                      timeZone={timeZone}
                      minDate={frozen ? undefined : today}
                      error={errorOf('scheduled_finish_date')}
                      readOnly={frozen}
                      onEdited={() => setFollows((current) => ({ ...current, finish: false }))}
                    />
                    <PauseEditor control={control} timeZone={timeZone} errorOf={errorOf} proposal={pauseProposal} readOnly={frozen} />
                    <SendingTimeline
                      send={values.scheduled_send_date}
                      finish={values.scheduled_finish_date}
                      pauses={values.pauses}
                      timeZone={timeZone}
                      quiet={values.ignore_quiet_hours ? null : quietHours}
                    />
                  </Stack>
                )}
                <AbTestEditor
                  control={control}
                  register={register}
                  errorOf={errorOf}
                  templates={[...templates, ...knownTemplates.filter((known) => !templates.some((t) => t.uuid === known.uuid))].map(templateOption)}
                  senders={senders}
                  readOnly={frozen}
                />
                {canIgnoreQuietHours && (
                  <BooleanSwitch
                    control={control}
                    name="ignore_quiet_hours"
                    label="Send through quiet hours"
                    description="Admins only: messages go out even during the team’s quiet hours."
                    color="orange"
                  />
                )}
              </Stack>
            </Fieldset>
            <FormError message={errors.root?.message} />
            {!frozen && (
              <Group gap="sm">
                <Button type="submit" loading={isSubmitting && submittingIntent === 'schedule'} disabled={isSubmitting && submittingIntent !== 'schedule'}>
                  {scheduleLabel}
                </Button>
                {onSaveDraft && (
                  <Button
                    variant="default"
                    onClick={() => submitAs('draft')}
                    loading={isSubmitting && submittingIntent === 'draft'}
                    disabled={isSubmitting && submittingIntent !== 'draft'}
                  >
                    {draftLabel}
                  </Button>
                )}
                {onCancel && (
                  <Button variant="subtle" color="gray" onClick={onCancel} disabled={isSubmitting}>
                    Cancel
                  </Button>
                )}
              </Group>
            )}
          </Stack>
        </form>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Stack gap="md">
          <RecipientEstimate included={values.included_contact_groups} excluded={values.excluded_contact_groups} withSegments={withSegments} />
          {values.template_uuid ? (
            renderTemplatePreview(values.template_uuid, values.sender)
          ) : (
            <Text size="sm" c="dimmed">
              Pick a template to see the message.
            </Text>
          )}
          {aside?.(values)}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
