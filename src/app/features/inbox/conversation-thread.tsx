import { Box, Group, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { ConversationMessage } from '../../api/gen/types.gen';
import { formatTimestamp } from '../../lib/format';

const KIND_LABELS: Record<ConversationMessage['kind'], string> = {
  inbound: 'Received',
  campaign: 'Campaign',
  test: 'Test send',
  keyword_reply: 'Keyword reply',
  inbox_reply: 'Reply',
  flow: 'Flow',
  confirmation: 'Opt-in confirmation',
};

/** A message's status in words: what the reader needs to know of its delivery. */
export function statusLabel(message: ConversationMessage): string {
  if (message.direction === 'inbound') return '';
  return message.status.charAt(0).toUpperCase() + message.status.slice(1);
}

/**
 * The messages to and from the number, oldest at the top and newest at the bottom (scrolled to when
 * a message arrives): what the number sent on the left, what the team sent on the right.
 */
export function ConversationThread({ messages }: { messages: readonly ConversationMessage[] }) {
  const end = useRef<HTMLDivElement>(null);
  const newest = messages.at(-1);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [newest?.created_at, newest?.body, messages.length]);

  if (messages.length === 0)
    return (
      <Text c="dimmed" size="sm" py="lg" ta="center">
        No messages yet.
      </Text>
    );
  return (
    <>
      <Stack component="ol" gap="sm" p={0} m={0} aria-label="Messages" style={{ listStyle: 'none' }}>
        {messages.map((message, index) => {
          const inbound = message.direction === 'inbound';
          const meta = [KIND_LABELS[message.kind], message.author?.name, statusLabel(message), formatTimestamp(message.created_at)].filter(Boolean).join(' · ');
          return (
            <Box component="li" key={`${message.created_at}-${index}`} style={{ display: 'flex', justifyContent: inbound ? 'flex-start' : 'flex-end' }}>
              <Paper
                withBorder
                p="sm"
                radius="lg"
                maw="85%"
                bg={inbound ? 'var(--mantine-color-body)' : 'var(--mantine-primary-color-light)'}
                aria-label={inbound ? 'From the contact' : 'From your team'}
                component="article"
              >
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {message.body}
                </Text>
                <Group gap={4} mt={4}>
                  <Text size="xs" c="dimmed">
                    {meta}
                  </Text>
                </Group>
              </Paper>
            </Box>
          );
        })}
      </Stack>
      <div ref={end} />
    </>
  );
}
