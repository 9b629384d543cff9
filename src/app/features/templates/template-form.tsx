import { Checkbox, Fieldset, Grid, Stack, Tabs, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconDeviceMobile, IconServer } from '@tabler/icons-react';
import { useMemo, useState, type ReactNode } from 'react';
import { Controller, useController, useForm, useWatch, type Control } from 'react-hook-form';
import { TemplateInputSchema, type LinkInput, type TemplateInput } from '../../../shared/contract';
import { replacePlainUrl, shorthandNames, type PlainUrl } from '../../../shared/sms';
import { isApiError } from '../../api/api-error';
import { FormActions } from '../../components/form-actions';
import { FormError } from '../../components/form-error';
import { UnsavedChangesGuard } from '../../components/unsaved-changes-guard';
import { applyServerFieldErrors } from '../../lib/server-field-errors';
import { SenderField } from '../../components/sender-field';
import { AudienceSegments, type AudienceSegmentsProps } from './audience-segments';
import { draftMessage, type MessageDraft } from './message-draft';
import { MessagePreview } from './message-preview';
import { TemplateBodyField } from './template-body-field';
import { TEMPLATE_LOCKED_MESSAGE, TemplateLockAlert } from './template-lock-alert';

const EMPTY: TemplateInput = { name: '', body: '', sender: '', force_utf8: false };
const FIELDS = ['name', 'body', 'sender', 'force_utf8'] as const;

/** What the page's link tracker (a modal that adds a link for an address) is given. */
export interface LinkTrackerProps {
  /** The address to track; the tracker is closed while null. */
  url: PlainUrl | null;
  /** Names the template's links already have. */
  takenNames: readonly string[];
  /** The link to add: the form puts `::name::` where the address was, and the link is created when the template is saved. */
  onTracked: (url: PlainUrl, link: PendingLink) => void;
  onClose: () => void;
}

/** A link tracked in the editor, created only when the template is saved (so an abandoned edit leaves none behind). */
export type PendingLink = LinkInput & {
  /** A short link as long as the real one, for the preview and the counters. */
  shortLink: string;
};

export type TemplateAudience = Pick<AudienceSegmentsProps, 'templateUuid' | 'groups' | 'knownGroups' | 'onGroupSearch' | 'defaultGroups'>;

interface TemplateFormProps {
  defaultValues?: TemplateInput;
  /** Names of the team's senders, offered while typing. */
  senders: readonly string[];
  /** Called with the sender typed, for the page to search the team's senders with. */
  onSenderSearch?: (text: string) => void;
  /** Short links by link name, as the preview and counters show them. */
  shortLinks: Record<string, string>;
  /** Field names to suggest in "Insert field" (e.g. columns of the team's contact groups). */
  fieldSuggestions?: readonly string[];
  linksEmptyMessage: string;
  /** True while a sending campaign uses the template: everything is read-only. */
  locked?: boolean;
  /** True when the role may not change templates: the form only shows the template (the page says why). */
  readOnly?: boolean;
  /** Content of the "Server preview" tab; the tab is left out without it. */
  serverPreview?: ReactNode;
  /** The team's contact groups to measure the body against ("Measure against a group"); left out without it. */
  audience?: TemplateAudience;
  /** Adds a tracked link for a web address typed into the body; left out before the template exists. */
  renderLinkTracker?: (props: LinkTrackerProps) => ReactNode;
  /** Shown above the save button while the form can be saved (e.g. the scheduled campaigns a save changes). */
  saveNotice?: ReactNode;
  submitLabel: string;
  /**
   * Saves the template, and first the links tracked since the last save that the body still uses
   * (`newLinks`); a rejection carrying 422 field errors shows them on the fields.
   */
  onSubmit: (input: TemplateInput, newLinks: readonly LinkInput[]) => Promise<unknown>;
  onCancel?: () => void;
}

// Per keystroke, in the browser: no request while typing. The body field and the preview each watch
// what they show, so a keystroke re-renders them and not the rest of the form; they share one draft.
function lastDraftCache() {
  let last: { body: string; shortLinks: Record<string, string>; forceUtf8: boolean; draft: MessageDraft } | undefined;
  return (body: string, shortLinks: Record<string, string>, forceUtf8: boolean): MessageDraft => {
    if (last?.body !== body || last.shortLinks !== shortLinks || last.forceUtf8 !== forceUtf8) {
      last = { body, shortLinks, forceUtf8, draft: draftMessage(body, shortLinks, { forceUtf8 }) };
    }
    return last.draft;
  };
}
const sharedDraft = lastDraftCache();

function useMessageDraft(control: Control<TemplateInput>, shortLinks: Record<string, string>): MessageDraft {
  const [body, forceUtf8 = false] = useWatch({ control, name: ['body', 'force_utf8'] });
  return useMemo(() => sharedDraft(body, shortLinks, forceUtf8), [body, shortLinks, forceUtf8]);
}

interface BodyFieldProps {
  control: Control<TemplateInput>;
  shortLinks: Record<string, string>;
  fieldSuggestions: readonly string[];
  linksEmptyMessage: string;
  error: string | undefined;
  readOnly: boolean;
  audience: TemplateAudience | undefined;
  onTrackUrl: ((url: PlainUrl) => void) | undefined;
}

function BodyField({ control, shortLinks, fieldSuggestions, linksEmptyMessage, error, readOnly, audience, onTrackUrl }: BodyFieldProps) {
  const { field } = useController({ control, name: 'body' });
  const draft = useMessageDraft(control, shortLinks);
  const linkNames = useMemo(() => Object.keys(shortLinks), [shortLinks]);
  const suggestions = useMemo(() => [...new Set([...shorthandNames(field.value).fields, ...fieldSuggestions])], [field.value, fieldSuggestions]);
  return (
    <TemplateBodyField
      value={field.value}
      onChange={field.onChange}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={error}
      draft={draft}
      linkNames={linkNames}
      fieldSuggestions={suggestions}
      linksEmptyMessage={linksEmptyMessage}
      readOnly={readOnly}
      belowCounter={
        audience && (
          <AudienceSegments {...audience} body={field.value} hasFields={draft.segments.some((pieces) => pieces.some((piece) => piece.kind === 'field'))} />
        )
      }
      onTrackUrl={onTrackUrl}
      cannotTrackReason="Once the template is created, each address can become a tracked link."
    />
  );
}

function LivePreview({ control, shortLinks }: { control: Control<TemplateInput>; shortLinks: Record<string, string> }) {
  const sender = useWatch({ control, name: 'sender' });
  const draft = useMessageDraft(control, shortLinks);
  return <MessagePreview sender={sender} segments={draft.segments} />;
}

export function TemplateForm({
  defaultValues = EMPTY,
  senders,
  onSenderSearch,
  shortLinks: savedShortLinks,
  fieldSuggestions = [],
  linksEmptyMessage,
  locked = false,
  readOnly = false,
  serverPreview,
  audience,
  renderLinkTracker,
  saveNotice,
  submitLabel,
  onSubmit,
  onCancel,
}: TemplateFormProps) {
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    reset,
    control,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<TemplateInput>({
    resolver: zodResolver(TemplateInputSchema),
    // The sender's 3–11 rule and the body limit are shown while typing, not only on submit.
    mode: 'onChange',
    defaultValues,
  });

  // The link's modal sits outside the template's <form>: a form in a portal still submits its React parents.
  const [tracking, setTracking] = useState<PlainUrl | null>(null);
  // Links tracked since the last save: in the preview and the counters now, created on save.
  const [pendingLinks, setPendingLinks] = useState<readonly PendingLink[]>([]);
  const shortLinks = useMemo(
    () =>
      pendingLinks.length === 0 ? savedShortLinks : { ...savedShortLinks, ...Object.fromEntries(pendingLinks.map((link) => [link.name, link.shortLink])) },
    [savedShortLinks, pendingLinks],
  );
  const linkNames = useMemo(() => Object.keys(shortLinks), [shortLinks]);

  const submit = handleSubmit(async (input) => {
    try {
      const used = shorthandNames(input.body).links.map((name) => name.toLowerCase());
      const newLinks = pendingLinks.filter((link) => used.includes(link.name.toLowerCase())).map(({ shortLink: _sample, ...link }) => link);
      await onSubmit(input, newLinks);
      // Saved: nothing is left to lose, and the links exist now.
      setPendingLinks([]);
      reset(getValues());
    } catch (error) {
      if (isApiError(error) && error.status === 423) setError('root', { type: 'server', message: TEMPLATE_LOCKED_MESSAGE });
      else applyServerFieldErrors(error, FIELDS, setError);
    }
  });

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {locked && <TemplateLockAlert />}
            <Fieldset variant="unstyled" disabled={locked || readOnly} p={0} m={0}>
              <Stack gap="md">
                <TextInput
                  label="Name"
                  description="Shown in lists and when picking a template for a campaign."
                  autoComplete="off"
                  withAsterisk
                  data-autofocus
                  error={errors.name?.message}
                  {...register('name')}
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
                      onSearch={onSenderSearch}
                      error={errors.sender?.message}
                    />
                  )}
                />
                <BodyField
                  control={control}
                  shortLinks={shortLinks}
                  fieldSuggestions={fieldSuggestions}
                  linksEmptyMessage={linksEmptyMessage}
                  error={errors.body?.message}
                  readOnly={locked || readOnly}
                  audience={audience}
                  onTrackUrl={renderLinkTracker && setTracking}
                />
                <Checkbox
                  label="Remove characters that cannot be sent"
                  description="Drops control characters, broken emoji halves and other invalid text instead of refusing the message. Emoji and accents are kept."
                  {...register('force_utf8')}
                />
              </Stack>
            </Fieldset>
            {!locked && !readOnly && saveNotice}
            <FormError message={errors.root?.message} />
            {!locked && !readOnly && <FormActions submitLabel={submitLabel} submitting={isSubmitting} onCancel={onCancel} />}
            <UnsavedChangesGuard when={(isDirty || pendingLinks.length > 0) && !isSubmitting && !locked && !readOnly} what="this template" />
          </Stack>
        </form>
        {renderLinkTracker?.({
          url: tracking,
          takenNames: linkNames,
          onTracked: (url, link) => {
            setPendingLinks((links) => [...links, link]);
            setValue('body', replacePlainUrl(getValues('body'), url.text, `::${link.name}::`), { shouldDirty: true, shouldValidate: true });
            setTracking(null);
          },
          onClose: () => setTracking(null),
        })}
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Tabs defaultValue="live" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="live" leftSection={<IconDeviceMobile size={16} />}>
              Live preview
            </Tabs.Tab>
            {serverPreview && (
              <Tabs.Tab value="server" leftSection={<IconServer size={16} />}>
                Server preview
              </Tabs.Tab>
            )}
          </Tabs.List>
          <Tabs.Panel value="live">
            <LivePreview control={control} shortLinks={shortLinks} />
          </Tabs.Panel>
          {serverPreview && <Tabs.Panel value="server">{serverPreview}</Tabs.Panel>}
        </Tabs>
      </Grid.Col>
    </Grid>
  );
}
