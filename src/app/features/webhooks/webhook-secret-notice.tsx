import { ActionIcon, Alert, Code, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import type { WebhookWithSecret } from '../../api/gen/types.gen';

interface WebhookSecretNoticeProps {
  webhook: Pick<WebhookWithSecret, 'name' | 'secret'>;
  /** Whether the secret is new with the webhook or replaces a rotated one. */
  reason: 'created' | 'rotated';
  onDismiss: () => void;
}

/** The service shows a signing secret once (when made or rotated), so it must be copied now. */
export function WebhookSecretNotice({ webhook, reason, onDismiss }: WebhookSecretNoticeProps) {
  return (
    <Alert
      color="teal"
      variant="light"
      icon={<IconKey />}
      title={reason === 'created' ? `Webhook “${webhook.name}” created` : `New signing secret for “${webhook.name}”`}
      withCloseButton
      closeButtonLabel="Dismiss the signing secret"
      onClose={onDismiss}
    >
      <Text size="sm" mb="xs">
        Your endpoint checks each call&apos;s signature with this secret. <strong>Copy it now: it will not be shown again.</strong>
        {reason === 'rotated' && ' The previous secret no longer signs calls.'}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code aria-label="Signing secret" style={{ wordBreak: 'break-all' }} fz="sm">
          {webhook.secret}
        </Code>
        <CopyButton value={webhook.secret}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label="Copy the signing secret">
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Alert>
  );
}
