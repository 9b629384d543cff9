import { Badge, Button, Group, List, Stack, Text, TextInput } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { useState } from 'react';
import type { CampaignReview } from '../../../shared/contract';
import { isApiError } from '../../api/api-error';
import { formatTimestamp } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { useSendCampaignTests } from './campaign-mutations';

const STATUS_COLOR: Record<string, string> = { delivered: 'teal', failed: 'red', unsent: 'orange', submitted: 'blue', queued: 'gray' };

/** The tests made from the campaign, and a form to send one now: to the user's own number unless others are given, personalised from a contact if named. */
export function CampaignTestSends({ uuid, testSends, ownNumber }: { uuid: string; testSends: CampaignReview['test_sends']; ownNumber: string }) {
  const [numbers, setNumbers] = useState<string>();
  const [contact, setContact] = useState('');
  const [error, setError] = useState<string>();
  const sendTests = useSendCampaignTests(uuid);
  const typed = numbers ?? ownNumber;

  const send = async () => {
    const phoneNumbers = typed
      .split(/[,;\s]+/)
      .map((number) => number.trim())
      .filter(Boolean);
    if (phoneNumbers.length === 0 && !ownNumber) return setError('Enter a number, or add your own number to your profile.');
    try {
      const made = await sendTests.mutateAsync({
        ...(phoneNumbers.length > 0 && { phone_numbers: phoneNumbers }),
        ...(contact.trim() && { contact_phone_number: contact.trim() }),
      });
      notifySuccess(`A test goes to ${made.length === 1 ? 'one number' : `${made.length} numbers`} now.`);
      setError(undefined);
    } catch (failure) {
      const messages = isApiError(failure) ? Object.entries(failure.fieldErrors).flatMap(([, list]) => list) : [];
      if (messages.length > 0) setError(messages.join(' '));
      else notifyFailure('The test could not be sent', failure);
    }
  };

  return (
    <Stack gap="xs" role="region" aria-label="Test sends">
      {testSends.length === 0 ? (
        <Text size="sm" c="dimmed">
          No test sent yet.
        </Text>
      ) : (
        <List size="sm" spacing={2} aria-label="Tests sent">
          {testSends.map((test) => (
            <List.Item key={test.uuid}>
              {test.phone_number} · {formatTimestamp(test.created_at)}{' '}
              <Badge size="xs" variant="light" color={STATUS_COLOR[test.status] ?? 'gray'}>
                {test.status}
              </Badge>
            </List.Item>
          ))}
        </List>
      )}
      <Group align="flex-end" gap="xs" wrap="wrap">
        <TextInput
          label="Send a test to"
          description="Numbers separated by commas; yours by default."
          placeholder="+447700900123"
          inputMode="tel"
          autoComplete="off"
          value={typed}
          onChange={(event) => {
            setNumbers(event.currentTarget.value);
            setError(undefined);
          }}
          error={error}
          style={{ flex: '1 1 14rem' }}
        />
        <TextInput
          label="Fields from contact"
          description="Optional: a recipient’s number."
          autoComplete="off"
          inputMode="tel"
          value={contact}
          onChange={(event) => setContact(event.currentTarget.value)}
          style={{ flex: '1 1 10rem' }}
        />
        <Button variant="default" leftSection={<IconFlask size={16} />} onClick={() => void send()} loading={sendTests.isPending}>
          Send a test
        </Button>
      </Group>
    </Stack>
  );
}
