import { ActionIcon, Alert, Code, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';

interface SigningSecretNoticeProps {
  /** What happened, naming the thing the secret signs for, e.g. `Webhook “CRM” created`. */
  title: string;
  secret: string;
  /** A sentence after the warning, e.g. what became of the secret a rotation replaced. */
  note?: string;
  onDismiss: () => void;
}

/** The service shows a signing secret once (when made or rotated), so it must be copied now. */
export function SigningSecretNotice({ title, secret, note, onDismiss }: SigningSecretNoticeProps) {
  return (
    <Alert color="teal" variant="light" icon={<IconKey />} title={title} withCloseButton closeButtonLabel="Dismiss the signing secret" onClose={onDismiss}>
      <Text size="sm" mb="xs">
        Your endpoint checks each call&apos;s signature with this secret. <strong>Copy it now: it will not be shown again.</strong>
        {note && ` ${note}`}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code aria-label="Signing secret" style={{ wordBreak: 'break-all' }} fz="sm">
          {secret}
        </Code>
        <CopyButton value={secret}>
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
