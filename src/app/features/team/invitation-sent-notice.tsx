import { Alert, Text } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { withArticle } from './member-roles';
import type { Invitation } from '../../api/gen/types.gen';

interface InvitationSentNoticeProps {
  invitation: Pick<Invitation, 'email' | 'role'>;
  onDismiss: () => void;
}

/** The e-mail leaves with the next run of the mail worker: the admin is told it is on its way, not that it arrived. */
export function InvitationSentNotice({ invitation, onDismiss }: InvitationSentNoticeProps) {
  return (
    <Alert
      color="teal"
      variant="light"
      icon={<IconMailForward />}
      title="Invitation sent"
      role="status"
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={onDismiss}
    >
      <Text size="sm">
        An e-mail inviting <strong>{invitation.email}</strong> to join as {withArticle(invitation.role)} is on its way. Its link works once, for 7 days.
      </Text>
    </Alert>
  );
}
