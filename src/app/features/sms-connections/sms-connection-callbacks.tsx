import { ActionIcon, Code, CopyButton, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { SmsConnection } from '../../api/gen/types.gen';
import { CALLBACK_HELP, PROVIDER_LABELS } from './sms-connection-providers';

function CopyableUrl({ label, url }: { label: string; url: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={`callback-${label.replaceAll(' ', '-').toLowerCase()}`}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code aria-labelledby={`callback-${label.replaceAll(' ', '-').toLowerCase()}`} fz="sm" style={{ wordBreak: 'break-all' }}>
          {url}
        </Code>
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy the ${label.toLowerCase()}`}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/** The two addresses to paste into the provider's console, with where they go. */
export function SmsConnectionCallbacks({ connection }: { connection: SmsConnection }) {
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="sms-connection-callbacks">
      <Title order={2} size="h4" id="sms-connection-callbacks" mb={4}>
        Callback URLs
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Paste these in your {PROVIDER_LABELS[connection.provider]} console so that delivery statuses and replies reach Herald.{' '}
        {CALLBACK_HELP[connection.provider]} Herald’s PUBLIC_URL must be reachable from the internet for the provider to call them.
      </Text>
      <Stack gap="md">
        <CopyableUrl label="Status callback URL" url={connection.status_callback_url} />
        <CopyableUrl label="Inbound URL" url={connection.inbound_url} />
      </Stack>
    </Paper>
  );
}
