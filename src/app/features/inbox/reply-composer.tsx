import { Alert, Button, Group, Popover, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconBan, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { measure } from '../../../shared/sms';
import type { SavedReply } from '../../api/gen/types.gen';
import { plural } from '../../lib/format';
import { SavedRepliesManager } from './saved-replies-manager';

/** Why the composer is disabled for a number that opted out (the service refuses with 409 too). */
export const OPTED_OUT_NOTICE =
  'This number opted out: it is on your suppression list, so it cannot be messaged from the inbox. It can be written to again once it texts START.';

const ENCODINGS = { GSM_7BIT: 'GSM', GSM_7BIT_EX: 'GSM', UTF16: 'Unicode' } as const;

interface ReplyComposerProps {
  optedOut: boolean;
  savedReplies: readonly SavedReply[];
  sending: boolean;
  /** Resolves once sent (the text is then cleared); rejects to keep it. */
  onSend: (body: string) => Promise<unknown>;
  onSave: (input: { name: string; body: string }) => Promise<unknown>;
}

/** The reply box: a saved reply to start from, the text with its length and SMS count, and Send. */
export function ReplyComposer({ optedOut, savedReplies, sending, onSend, onSave }: ReplyComposerProps) {
  const [body, setBody] = useState('');
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);
  const measured = measure(body);
  const empty = body.trim() === '';

  const send = async () => {
    if (empty || optedOut) return;
    try {
      await onSend(body);
      setBody('');
    } catch {
      // The caller has said why; the text stays to be sent again.
    }
  };

  if (optedOut)
    return (
      <Alert icon={<IconBan />} color="red" title="You cannot reply to this number">
        {OPTED_OUT_NOTICE}
      </Alert>
    );

  return (
    <Stack gap="xs" component="form" onSubmit={(event) => (event.preventDefault(), void send())} aria-label="Reply">
      {savedReplies.length > 0 && (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <Select
            style={{ flex: 1 }}
            label="Saved reply"
            placeholder="Start from a saved reply"
            value={null}
            onChange={(uuid) => {
              const picked = savedReplies.find((reply) => reply.uuid === uuid);
              if (picked) setBody(picked.body);
            }}
            data={savedReplies.map((reply) => ({ value: reply.uuid, label: reply.name }))}
            searchable
          />
          <SavedRepliesManager savedReplies={savedReplies} />
        </Group>
      )}
      <Textarea
        label="Reply"
        autosize
        minRows={2}
        maxRows={8}
        value={body}
        onChange={(event) => setBody(event.currentTarget.value)}
        onKeyDown={(event) => {
          // Ctrl or ⌘ and Enter sends, as in most messaging tools; Enter alone starts a new line.
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void send();
          }
        }}
        description={`${plural(measured.length, 'character', 'characters')} · ${plural(measured.segments, 'SMS', 'SMS')} (${ENCODINGS[measured.encoding]}) · Ctrl+Enter sends`}
      />
      <Group justify="space-between">
        <Popover position="top-start" withArrow trapFocus>
          <Popover.Target>
            <Button variant="subtle" size="xs" disabled={empty}>
              Save as a saved reply
            </Button>
          </Popover.Target>
          <Popover.Dropdown>
            <Stack gap="xs">
              <TextInput label="Name of the saved reply" value={name} onChange={(event) => setName(event.currentTarget.value)} />
              <Button
                size="xs"
                loading={saving}
                disabled={name.trim() === ''}
                onClick={async () => {
                  setSaving(true);
                  try {
                    await onSave({ name: name.trim(), body });
                    setName('');
                  } catch {
                    // The caller has said why.
                  } finally {
                    setSaving(false);
                  }
                }}
              >
                Save
              </Button>
            </Stack>
          </Popover.Dropdown>
        </Popover>
        <Button type="submit" leftSection={<IconSend size={16} />} loading={sending} disabled={empty}>
          Send
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        Sent from your short code through your team’s route; its delivery status shows in the thread.
      </Text>
    </Stack>
  );
}
