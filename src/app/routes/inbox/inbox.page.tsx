import { Anchor, Box, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconArrowLeft, IconMessages } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { EmptyPanel } from '../../components/empty-panel';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { RoleNotice } from '../../features/auth/role-notice';
import { useTeamRole } from '../../features/auth/use-team-role';
import { ContactPanel } from '../../features/inbox/contact-panel';
import { ConversationActions } from '../../features/inbox/conversation-actions';
import { ConversationFilters, ConversationList, listParamsOf, type StatusFilter } from '../../features/inbox/conversation-list';
import { ConversationThread } from '../../features/inbox/conversation-thread';
import { useCreateSavedReply, useReply, useUpdateConversation } from '../../features/inbox/inbox-mutations';
import { inboxKeys, inboxQueries } from '../../features/inbox/inbox-queries';
import { ReplyComposer } from '../../features/inbox/reply-composer';
import { formatTimestamp } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { paths } from '../../paths';

/**
 * The inbox: the conversations on the left, the open one on the right with the contact beside it.
 * On a narrow screen one pane shows at a time: the list, then the thread with a link back.
 */
export default function InboxPage() {
  const { phoneNumber } = useParams();
  const wide = useMediaQuery('(min-width: 62em)');
  const [status, setStatus] = useState<StatusFilter>('open');
  const [assignee, setAssignee] = useState('anyone');
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const conversations = useQuery(inboxQueries.list(listParamsOf(status, assignee, unreadOnly, debouncedSearch)));
  const members = useQuery(inboxQueries.members());

  const listPane = (
    <Stack gap="sm" component="section" aria-labelledby="conversations-title">
      <Title order={2} size="h4" id="conversations-title">
        Conversations
      </Title>
      <ConversationFilters
        status={status}
        onStatusChange={setStatus}
        assignee={assignee}
        onAssigneeChange={setAssignee}
        unreadOnly={unreadOnly}
        onUnreadOnlyChange={setUnreadOnly}
        search={search}
        onSearchChange={setSearch}
        members={members.data ?? []}
      />
      {conversations.isPending ? (
        <Center py="lg">
          <Loader aria-label="Loading the conversations" />
        </Center>
      ) : conversations.isError ? (
        <ErrorState title="The conversations could not be loaded." error={conversations.error} onRetry={() => void conversations.refetch()} />
      ) : conversations.data.data.length === 0 ? (
        <EmptyPanel
          icon={<IconMessages />}
          title="No conversations here"
          description="When someone texts your number, the conversation appears here. Change the filters to see the others."
        />
      ) : (
        <ConversationList conversations={conversations.data.data} selected={phoneNumber} />
      )}
    </Stack>
  );

  const threadPane = phoneNumber ? (
    <ConversationPane key={phoneNumber} phoneNumber={phoneNumber} showBackLink={!wide} />
  ) : (
    <Card withBorder padding="xl">
      <Text c="dimmed" ta="center">
        Choose a conversation to read it and reply.
      </Text>
    </Card>
  );

  return (
    <>
      <PageHeader title="Inbox" description="Conversations with the people you text: read, reply, assign, close and snooze." />
      <RoleNotice needs="edit" />
      {wide ? (
        <Group align="flex-start" gap="lg" wrap="nowrap">
          <Box w={340} style={{ flexShrink: 0 }}>
            {listPane}
          </Box>
          <Box style={{ flex: 1, minWidth: 0 }}>{threadPane}</Box>
        </Group>
      ) : phoneNumber ? (
        threadPane
      ) : (
        listPane
      )}
    </>
  );
}

/** One conversation: its header and actions, the thread, the composer, and the contact beside it. */
function ConversationPane({ phoneNumber, showBackLink }: { phoneNumber: string; showBackLink: boolean }) {
  const thread = useQuery(inboxQueries.thread(phoneNumber));
  const members = useQuery(inboxQueries.members());
  const { can } = useTeamRole();
  const canReply = can('edit');
  const savedReplies = useQuery({ ...inboxQueries.savedReplies(), enabled: canReply });
  const reply = useReply(phoneNumber);
  const update = useUpdateConversation(phoneNumber);
  const saveReply = useCreateSavedReply();
  const wideLayout = useMediaQuery('(min-width: 88em)');
  // Reading the thread marked it read: the list's badge and the navbar's count follow at once, not at their next poll.
  const queryClient = useQueryClient();
  const loaded = thread.isSuccess;
  useEffect(() => {
    if (!loaded) return;
    void queryClient.invalidateQueries({ queryKey: inboxKeys.lists() });
    void queryClient.invalidateQueries({ queryKey: inboxKeys.unread() });
  }, [loaded, queryClient]);

  const back = showBackLink && (
    <Anchor component={Link} to={paths.inbox.list.getHref()} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} /> All conversations
      </Group>
    </Anchor>
  );
  if (thread.isPending)
    return (
      <Stack>
        {back}
        <Center py="lg">
          <Loader aria-label="Loading the conversation" />
        </Center>
      </Stack>
    );
  if (thread.isError)
    return (
      <Stack>
        {back}
        <ErrorState title="The conversation could not be loaded." error={thread.error} onRetry={() => void thread.refetch()} />
      </Stack>
    );

  const { conversation, data: messages } = thread.data;
  const title = conversation.name || `+${conversation.phone_number}`;
  const stateLine =
    conversation.status === 'snoozed' ? `Snoozed until ${formatTimestamp(conversation.snoozed_until)}` : conversation.status === 'closed' ? 'Closed' : 'Open';

  const main = (
    <Stack gap="md" style={{ flex: 1, minWidth: 0 }} component="section" aria-labelledby="thread-title">
      {back}
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={0}>
          <Title order={2} size="h3" id="thread-title">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {conversation.name ? `+${conversation.phone_number} · ` : ''}
            {stateLine}
            {conversation.assignee ? ` · assigned to ${conversation.assignee.name || conversation.assignee.email}` : ''}
          </Text>
        </Stack>
        {canReply && (
          <ConversationActions
            conversation={conversation}
            members={members.data ?? []}
            busy={update.isPending}
            onChange={(change) =>
              update.mutate(change, {
                onSuccess: () =>
                  notifySuccess(
                    change.status === 'closed' ? 'Conversation closed.' : change.status === 'snoozed' ? 'Conversation snoozed.' : 'Conversation updated.',
                  ),
                onError: (error) => notifyFailure('The conversation could not be changed', error),
              })
            }
          />
        )}
      </Group>
      <Card withBorder padding="md" bg="var(--herald-phone-screen)">
        <ConversationThread messages={messages} />
      </Card>
      {canReply && (
        <ReplyComposer
          optedOut={conversation.opted_out}
          savedReplies={savedReplies.data ?? []}
          sending={reply.isPending}
          onSend={(body) => reply.mutateAsync(body, { onError: (error) => notifyFailure('The reply could not be sent', error) })}
          onSave={(input) =>
            saveReply.mutateAsync(input, {
              onSuccess: () => notifySuccess('Saved reply added.'),
              onError: (error) => notifyFailure('The reply could not be saved', error),
            })
          }
        />
      )}
    </Stack>
  );

  return wideLayout ? (
    <Group align="flex-start" gap="lg" wrap="nowrap">
      {main}
      <Box w={260} style={{ flexShrink: 0 }}>
        <ContactPanel phoneNumber={conversation.phone_number} />
      </Box>
    </Group>
  ) : (
    <Stack gap="lg">
      {main}
      <ContactPanel phoneNumber={conversation.phone_number} />
    </Stack>
  );
}
