import { ActionIcon, Alert, Code, CopyButton, Group, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface OnceShownSecretProps {
  /** What happened, e.g. `Token “CRM” created`. */
  title: string;
  secret: string;
  /** Names the secret's box, its copy button and the close button, e.g. "New API token", "Copy the token", "Dismiss the new token". */
  labels: { secret: string; copy: string; dismiss: string };
  /** The sentence above the secret: that it must be copied now. */
  children: ReactNode;
  onDismiss: () => void;
}

/** A secret the service shows once (a token, a signing secret): it must be copied now, and is gone once dismissed. */
export function OnceShownSecret({ title, secret, labels, children, onDismiss }: OnceShownSecretProps) {
  return (
    <Alert color="teal" variant="light" icon={<IconKey />} title={title} withCloseButton closeButtonLabel={labels.dismiss} onClose={onDismiss}>
      <Text size="sm" mb="xs">
        {children}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code aria-label={labels.secret} style={{ wordBreak: 'break-all' }} fz="sm">
          {secret}
        </Code>
        <CopyButton value={secret}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={labels.copy}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Alert>
  );
}
