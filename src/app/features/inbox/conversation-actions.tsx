import { Button, Group, Menu, Select } from '@mantine/core';
import { IconAlarmSnooze, IconCheck, IconRefresh } from '@tabler/icons-react';
import type { Conversation, Member } from '../../api/gen/types.gen';
import type { ConversationChange } from './inbox-mutations';

const HOUR = 3_600_000;

/** Snooze choices: how long from now (sent as RFC 3339, which the API reads whatever its zone). */
const SNOOZES = [
  { label: 'For 1 hour', ms: HOUR },
  { label: 'For 4 hours', ms: 4 * HOUR },
  { label: 'For 1 day', ms: 24 * HOUR },
  { label: 'For 1 week', ms: 7 * 24 * HOUR },
] as const;

interface ConversationActionsProps {
  conversation: Conversation;
  members: readonly Member[];
  busy: boolean;
  onChange: (change: ConversationChange) => void;
  /** The clock the snooze counts from (tests pass theirs). */
  now?: () => number;
}

/** Assign, close or reopen, and snooze: for editors and admins. */
export function ConversationActions({ conversation, members, busy, onChange, now = Date.now }: ConversationActionsProps) {
  return (
    <Group gap="xs" align="flex-end">
      <Select
        label="Assigned to"
        size="xs"
        w={180}
        value={conversation.assignee?.uuid ?? 'none'}
        allowDeselect={false}
        disabled={busy}
        onChange={(value) => onChange({ assignee_uuid: value === 'none' || value === null ? null : value })}
        data={[{ value: 'none', label: 'No one' }, ...members.map((member) => ({ value: member.uuid, label: member.name || member.email }))]}
      />
      {conversation.status === 'open' ? (
        <Button size="xs" variant="default" leftSection={<IconCheck size={14} />} disabled={busy} onClick={() => onChange({ status: 'closed' })}>
          Close
        </Button>
      ) : (
        <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} disabled={busy} onClick={() => onChange({ status: 'open' })}>
          Reopen
        </Button>
      )}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="xs" variant="default" leftSection={<IconAlarmSnooze size={14} />} disabled={busy}>
            Snooze
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {SNOOZES.map((snooze) => (
            <Menu.Item key={snooze.label} onClick={() => onChange({ status: 'snoozed', snoozed_until: new Date(now() + snooze.ms).toISOString() })}>
              {snooze.label}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
