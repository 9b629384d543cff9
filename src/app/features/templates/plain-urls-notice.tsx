import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import type { PlainUrl } from '../../../shared/sms';

interface PlainUrlsNoticeProps {
  urls: readonly PlainUrl[];
  /** Turns one address into a tracked link; without it the notice says what must happen first. */
  onTrack?: (url: PlainUrl) => void;
  /** Why the addresses cannot be tracked yet (e.g. the template is not saved). */
  cannotTrackReason?: string;
}

/** Web addresses typed into the body, each offered as a tracked short link. */
export function PlainUrlsNotice({ urls, onTrack, cannotTrackReason }: PlainUrlsNoticeProps) {
  // The same address typed twice is offered once: tracking it replaces both.
  const distinct = [...new Map(urls.map((url) => [url.text, url])).values()];
  if (distinct.length === 0) return null;
  return (
    <Alert color="blue" variant="light" p="sm" icon={<IconLink size={18} />} title={distinct.length === 1 ? 'A plain web address' : 'Plain web addresses'}>
      <Stack gap="xs">
        <Text size="sm">
          Sent as typed: its clicks are not counted and every character is paid for. A tracked link is short and counts each contact’s clicks.
        </Text>
        {distinct.map((url) => (
          <Group key={url.text} gap="xs" wrap="nowrap" justify="space-between">
            <Code style={{ overflowWrap: 'anywhere', minWidth: 0 }}>{url.text}</Code>
            {onTrack && (
              <Button size="compact-sm" variant="light" onClick={() => onTrack(url)} aria-label={`Track ${url.text} as a link`} style={{ flexShrink: 0 }}>
                Track this link
              </Button>
            )}
          </Group>
        ))}
        {!onTrack && cannotTrackReason && (
          <Text size="sm" c="dimmed">
            {cannotTrackReason}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
