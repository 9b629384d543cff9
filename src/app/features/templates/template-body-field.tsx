import { Alert, Group, List, Stack, Textarea } from '@mantine/core';
import { useMergedRef } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMemo, useRef, type ReactNode, type Ref } from 'react';
import { TEMPLATE_BODY_MAX } from '../../../shared/contract';
import { plainUrls, replaceLookalikes, type PlainUrl } from '../../../shared/sms';
import { InsertFieldMenu } from './insert-field-menu';
import { InsertLinkMenu } from './insert-link-menu';
import type { MessageDraft } from './message-draft';
import { NonGsmCharacters } from './non-gsm-characters';
import { PlainUrlsNotice } from './plain-urls-notice';
import { SegmentCounter } from './segment-counter';
import { formatCount } from '../../lib/format';

interface TemplateBodyFieldProps {
  value: string;
  onChange: (body: string) => void;
  onBlur: () => void;
  inputRef: Ref<HTMLTextAreaElement>;
  error: string | undefined;
  draft: MessageDraft;
  linkNames: readonly string[];
  fieldSuggestions: readonly string[];
  linksEmptyMessage: string;
  readOnly?: boolean;
  /** Shown right under the segment counter (the count over a real audience). */
  belowCounter?: ReactNode;
  /** Turns a web address typed into the body into a tracked link; without it the notice says why it cannot yet. */
  onTrackUrl?: (url: PlainUrl) => void;
  cannotTrackReason?: string;
}

/** The body textarea with its tools: shorthand menus, live counters, non-GSM characters, link warnings. */
export function TemplateBodyField({
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  draft,
  linkNames,
  fieldSuggestions,
  linksEmptyMessage,
  readOnly,
  belowCounter,
  onTrackUrl,
  cannotTrackReason,
}: TemplateBodyFieldProps) {
  const urls = useMemo(() => plainUrls(value), [value]);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const ref = useMergedRef(textarea, inputRef);

  /** Puts a shorthand where the cursor is (or over the selection), then puts the cursor after it. */
  const insertAtCursor = (shorthand: string) => {
    const element = textarea.current;
    const start = element?.selectionStart ?? value.length;
    const end = element?.selectionEnd ?? value.length;
    onChange(value.slice(0, start) + shorthand + value.slice(end));
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + shorthand.length, start + shorthand.length);
    });
  };

  return (
    <Stack gap="xs">
      <Textarea
        ref={ref}
        label="Message"
        description={`Up to ${formatCount(TEMPLATE_BODY_MAX)} characters. {{field}} is filled from each contact; ::NAME:: becomes a tracked short link.`}
        placeholder="Hi {{first_name}}, our sale ends Sunday: ::SALE::"
        withAsterisk
        autosize
        minRows={6}
        maxRows={16}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        onBlur={onBlur}
        error={error}
        readOnly={readOnly}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-sm)' } }}
        inputContainer={(children) => (
          <Stack gap={6}>
            <Group gap="xs">
              <InsertFieldMenu suggestions={fieldSuggestions} onInsert={insertAtCursor} disabled={readOnly} />
              <InsertLinkMenu linkNames={linkNames} onInsert={insertAtCursor} disabled={readOnly} emptyMessage={linksEmptyMessage} />
            </Group>
            {children}
          </Stack>
        )}
      />
      <SegmentCounter measurement={draft.measurement} characters={draft.characters} />
      {belowCounter}
      <NonGsmCharacters
        characters={draft.nonGsm}
        lookalikes={draft.lookalikes}
        onReplaceLookalikes={() => onChange(replaceLookalikes(value))}
        disabled={readOnly}
      />
      <PlainUrlsNotice urls={urls} onTrack={readOnly ? undefined : onTrackUrl} cannotTrackReason={readOnly ? undefined : cannotTrackReason} />
      {draft.warnings.length > 0 && (
        <Alert color="yellow" variant="light" p="sm" icon={<IconAlertTriangle size={18} />} title="Sent as a blank space">
          <List size="sm" spacing={2}>
            {draft.warnings.map((warning) => (
              <List.Item key={warning}>{warning}</List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}
