import { ActionIcon, Alert, Code, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import type { CreatedApiToken } from '../../api/gen/types.gen';

interface CreatedTokenNoticeProps {
  token: Pick<CreatedApiToken, 'name' | 'token'>;
  onDismiss: () => void;
}

/** The service shows a token's secret once (it keeps only a hash), so it must be copied now. */
export function CreatedTokenNotice({ token, onDismiss }: CreatedTokenNoticeProps) {
  return (
    <Alert
      color="teal"
      variant="light"
      icon={<IconKey />}
      title={`Token “${token.name}” created`}
      withCloseButton
      closeButtonLabel="Dismiss the new token"
      onClose={onDismiss}
    >
      <Text size="sm" mb="xs">
        Copy it now: for your security it will not be shown again.
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code aria-label="New API token" style={{ wordBreak: 'break-all' }} fz="sm">
          {token.token}
        </Code>
        <CopyButton value={token.token}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label="Copy the token">
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Alert>
  );
}
