import { Badge, Text, Tooltip } from '@mantine/core';
import type { ContactDetail } from '../../api/gen/types.gen';
import { WHOLE_BADGE } from './opt-out-badge';

type MessageStatus = ContactDetail['messages']['items'][number]['status'];

const STATUS: Record<MessageStatus, { label: string; color: string; meaning: string }> = {
  queued: { label: 'Queued', color: 'gray', meaning: 'Waiting to be handed to the SMS gateway.' },
  submitted: { label: 'Submitted', color: 'blue', meaning: 'Handed to the SMS gateway; no delivery receipt yet.' },
  delivered: { label: 'Delivered', color: 'teal', meaning: 'The handset received it.' },
  failed: { label: 'Failed', color: 'red', meaning: 'The gateway or the network could not deliver it.' },
  unsent: { label: 'Unsent', color: 'orange', meaning: 'Never handed over: the campaign expired or was stopped first.' },
};

/** A message's outcome, with why it failed or was not sent under it. */
export function MessageStatusBadge({ status, reason }: { status: MessageStatus; reason: string | null }) {
  const { label, color, meaning } = STATUS[status];
  return (
    <>
      <Tooltip label={meaning} withArrow>
        <Badge color={color} variant="light" styles={WHOLE_BADGE}>
          {label}
        </Badge>
      </Tooltip>
      {reason && status !== 'delivered' && (
        <Text size="xs" c="dimmed" mt={4}>
          {reason}
        </Text>
      )}
    </>
  );
}
