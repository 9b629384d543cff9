import { Badge, Group, SegmentedControl, Select, Stack, Switch, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Conversation, Member } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';
import { paths } from '../../paths';
import type { ConversationListParams } from './inbox-queries';

export type StatusFilter = 'open' | 'snoozed' | 'closed' | 'all';

interface ConversationFiltersProps {
  status: StatusFilter;
  onStatusChange: (status: StatusFilter) => void;
  assignee: string;
  onAssigneeChange: (assignee: string) => void;
  unreadOnly: boolean;
  onUnreadOnlyChange: (unreadOnly: boolean) => void;
  search: string;
  onSearchChange: (search: string) => void;
  members: readonly Member[];
}

/** The list's filters: status, assignee, unread only, and a search over the number, the name and the messages. */
export function ConversationFilters(props: ConversationFiltersProps) {
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label="Status"
        fullWidth
        size="xs"
        value={props.status}
        onChange={(value) => props.onStatusChange(value as StatusFilter)}
        data={[
          { value: 'open', label: 'Open' },
          { value: 'snoozed', label: 'Snoozed' },
          { value: 'closed', label: 'Closed' },
          { value: 'all', label: 'All' },
        ]}
      />
      <TextInput
        label="Search"
        placeholder="Number, name or text"
        leftSection={<IconSearch size={16} />}
        value={props.search}
        onChange={(event) => props.onSearchChange(event.currentTarget.value)}
      />
      <Group gap="sm" align="flex-end" wrap="nowrap">
        <Select
          label="Assigned to"
          style={{ flex: 1 }}
          value={props.assignee}
          onChange={(value) => props.onAssigneeChange(value ?? 'anyone')}
          allowDeselect={false}
          data={[
            { value: 'anyone', label: 'Anyone' },
            { value: 'me', label: 'Me' },
            { value: 'none', label: 'No one' },
            ...props.members.map((member) => ({ value: member.uuid, label: member.name || member.email })),
          ]}
        />
        <Switch label="Unread only" checked={props.unreadOnly} onChange={(event) => props.onUnreadOnlyChange(event.currentTarget.checked)} mb={8} />
      </Group>
    </Stack>
  );
}

/** What the filters ask of the API. */
export function listParamsOf(status: StatusFilter, assignee: string, unreadOnly: boolean, search: string): ConversationListParams {
  return {
    ...(status === 'all' ? {} : { status }),
    ...(assignee === 'anyone' ? {} : { assignee }),
    ...(unreadOnly ? { unread: 'true' as const } : {}),
    ...(search.trim() ? { search: search.trim() } : {}),
  };
}

interface ConversationListProps {
  conversations: readonly Conversation[];
  selected?: string;
}

/** One link per conversation, latest activity first, its unread state as a badge (and in words for screen readers). */
export function ConversationList({ conversations, selected }: ConversationListProps) {
  return (
    <Stack component="ul" gap={4} p={0} m={0} style={{ listStyle: 'none' }} aria-label="Conversations">
      {conversations.map((conversation) => {
        const active = conversation.phone_number === selected;
        return (
          <li key={conversation.phone_number}>
            <UnstyledButton
              component={Link}
              to={paths.inbox.conversation.getHref(conversation.phone_number)}
              aria-current={active ? 'page' : undefined}
              p="sm"
              w="100%"
              style={{
                display: 'block',
                borderRadius: 'var(--mantine-radius-md)',
                background: active ? 'var(--mantine-primary-color-light)' : undefined,
              }}
            >
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text fw={conversation.unread ? 700 : 500} size="sm" truncate>
                  {conversation.name || `+${conversation.phone_number}`}
                </Text>
                <Group gap={6} wrap="nowrap">
                  {conversation.status !== 'open' && (
                    <Badge size="xs" variant="light" color="gray">
                      {conversation.status === 'closed' ? 'Closed' : 'Snoozed'}
                    </Badge>
                  )}
                  {conversation.unread && (
                    <Badge size="xs" variant="filled">
                      Unread
                    </Badge>
                  )}
                </Group>
              </Group>
              {conversation.name && (
                <Text size="xs" c="dimmed">
                  +{conversation.phone_number}
                </Text>
              )}
              {conversation.last_message && (
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Text size="xs" c="dimmed" truncate>
                    {conversation.last_message.direction === 'outbound' ? 'You: ' : ''}
                    {conversation.last_message.body}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {formatTimestamp(conversation.last_message.created_at)}
                  </Text>
                </Group>
              )}
            </UnstyledButton>
          </li>
        );
      })}
    </Stack>
  );
}
