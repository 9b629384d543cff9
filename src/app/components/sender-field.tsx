import { Alert, Autocomplete, Stack, Text } from '@mantine/core';
import { IconMessageOff } from '@tabler/icons-react';
import type { Ref } from 'react';
import { SENDER_MAX, SENDER_MIN } from '../../shared/contract';

/** The installation's short code: every team may send as it, and replies (STOP, HELP) reach it. */
export const SHORT_CODE_SENDER = '88440';

/** A sender with a letter (or any sign but digits) in it: handsets cannot reply to it. */
export function isAlphanumericSender(sender: string): boolean {
  const trimmed = sender.trim();
  return trimmed.length > 0 && !/^\+?[\d ]+$/.test(trimmed);
}

/** Said wherever a message is sent as an alphanumeric sender: nobody can text STOP or HELP back to it. */
export function NoRepliesNotice({ sender }: { sender: string }) {
  if (!isAlphanumericSender(sender)) return null;
  return (
    <Alert role="note" color="yellow" variant="light" p="xs" icon={<IconMessageOff size={16} aria-hidden />} title="Recipients cannot reply to this sender">
      <Text size="xs">
        “{sender.trim()}” is alphanumeric: a reply to it goes nowhere, so texting STOP or HELP back does not work. Offer another way in the message, for example
        “Text STOP to {SHORT_CODE_SENDER}”, or send as {SHORT_CODE_SENDER}.
      </Text>
    </Alert>
  );
}

interface SenderFieldProps {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  inputRef?: Ref<HTMLInputElement>;
  name?: string;
  /** Names of the team's senders, offered while typing. */
  senders: readonly string[];
  /** Called with the text typed, for the page to search the team's senders with. */
  onSearch?: (text: string) => void;
  error?: string;
}

/**
 * The sender of a template or campaign: one of the team's senders or 88440 (an editor may use no
 * other); an admin may type a new one, which joins the team's senders when saved. Warns when
 * recipients could not reply to it.
 */
export function SenderField({ value, onChange, onBlur, inputRef, name, senders, onSearch, error }: SenderFieldProps) {
  return (
    <Stack gap={6}>
      <Autocomplete
        ref={inputRef}
        name={name}
        value={value}
        onBlur={onBlur}
        onChange={(text) => {
          onChange(text);
          onSearch?.(text);
        }}
        label="Sender"
        description={`One of your team’s senders or ${SHORT_CODE_SENDER}. An admin may type a new one (${SENDER_MIN} to ${SENDER_MAX} letters, digits, spaces or . - _ &); it joins the team’s senders.`}
        placeholder="e.g. HeraldShop"
        data={[...new Set([...senders, SHORT_CODE_SENDER])]}
        withAsterisk
        autoComplete="off"
        error={error}
        rightSection={
          <Text size="xs" c={value.length > SENDER_MAX ? 'red' : 'dimmed'} aria-hidden>
            {value.length}/{SENDER_MAX}
          </Text>
        }
        rightSectionWidth={48}
        rightSectionPointerEvents="none"
      />
      <NoRepliesNotice sender={value} />
    </Stack>
  );
}
